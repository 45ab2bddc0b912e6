import { useEffect, useRef, useState } from 'react';
import { Button } from '@/components/ui';
import { AUDIO_PREVIEW_VOLUME, AUDIO_TEST_TIMEOUT_MS, AudioMessages } from './audio.constants';
import { playableAudioUrl } from './audio-source';

type TestState = 'idle' | 'testing' | 'ready' | 'failed';

/**
 * The 'Test' of an audio link (quiz form, audio list form, sound demo): loads it — through the audio proxy for a
 * cloud-storage link — previews it at 0.6 and says 'Audio Ready' or 'URL Failed'.
 */
export function AudioUrlTest({ url, label }: { url: string; label: string }) {
  const [result, setResult] = useState<{ url: string; state: TestState }>({ url: '', state: 'idle' });
  const stop = useRef<(() => void) | null>(null);

  useEffect(() => () => stop.current?.(), []);

  // A result belongs to the link it tested; editing the link clears it.
  const state = result.url === url ? result.state : 'idle';

  const run = () => {
    stop.current?.();
    const tested = url.trim();
    const audio = new Audio();
    audio.preload = 'auto';
    audio.volume = AUDIO_PREVIEW_VOLUME;
    const finish = (next: TestState) => {
      cleanup();
      setResult({ url, state: next });
      if (next === 'ready') void Promise.resolve(audio.play()).catch(() => undefined);
    };
    const onReady = () => finish('ready');
    const onError = () => finish('failed');
    const timer = setTimeout(onError, AUDIO_TEST_TIMEOUT_MS);
    const cleanup = () => {
      clearTimeout(timer);
      audio.removeEventListener('canplay', onReady);
      audio.removeEventListener('error', onError);
    };
    stop.current = () => {
      cleanup();
      audio.pause();
    };
    audio.addEventListener('canplay', onReady);
    audio.addEventListener('error', onError);
    setResult({ url, state: 'testing' });
    audio.src = playableAudioUrl(tested);
  };

  return (
    <div className="flex items-center gap-2">
      <Button
        variant="outline"
        size="sm"
        onClick={run}
        disabled={url.trim() === '' || state === 'testing'}
        aria-label={label}
      >
        Test
      </Button>
      <span role="status" className="text-xs font-semibold">
        {state === 'testing' ? <span className="text-slate-500">Testing…</span> : null}
        {state === 'ready' ? <span className="text-emerald-700">{AudioMessages.audioReady}</span> : null}
        {state === 'failed' ? <span className="text-red-700">{AudioMessages.urlFailed}</span> : null}
      </span>
    </div>
  );
}

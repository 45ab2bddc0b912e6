import { useEffect, useRef, useState } from 'react';
import { Button } from '@/components/ui';
import { AUDIO_VOLUME, QuizMessages } from '../quizzes.constants';
import { playableAudioUrl } from './audio-source';

export type AudioPlayState = 'loading' | 'ready' | 'playing' | 'paused' | 'ended' | 'error';

const LABELS: Record<AudioPlayState, string> = {
  loading: 'Loading',
  ready: 'Play',
  playing: 'Pause',
  paused: 'Play',
  ended: 'Replay',
  error: 'Error',
};

export interface AudioPlayButtonProps {
  src: string;
  /** False when the play limit is used up: a new play (from the start) is refused, a paused one may resume. */
  canStartPlay?: boolean;
  /** Called once each time a play from the start begins (the play limit counts these). */
  onPlayStarted?: () => void;
}

/**
 * Spec §4 "Audio play button": Loading, then Play, Pause while playing, Replay after it ends, Error on failure;
 * volume 0.7. Render it with `key={src}` so a new link starts over at Loading.
 */
export function AudioPlayButton({ src, canStartPlay = true, onPlayStarted }: AudioPlayButtonProps) {
  const [state, setState] = useState<AudioPlayState>('loading');
  const [blocked, setBlocked] = useState(false);
  const audioRef = useRef<HTMLAudioElement | null>(null);
  const pending = useRef(false);

  useEffect(() => {
    const audio = new Audio();
    audio.preload = 'auto';
    audio.volume = AUDIO_VOLUME;
    const onReady = () => setState((s) => (s === 'loading' ? 'ready' : s));
    const onEnded = () => setState('ended');
    const onError = () => setState('error');
    audio.addEventListener('canplay', onReady);
    audio.addEventListener('loadedmetadata', onReady);
    audio.addEventListener('ended', onEnded);
    audio.addEventListener('error', onError);
    audio.src = playableAudioUrl(src);
    audioRef.current = audio;
    return () => {
      audio.removeEventListener('canplay', onReady);
      audio.removeEventListener('loadedmetadata', onReady);
      audio.removeEventListener('ended', onEnded);
      audio.removeEventListener('error', onError);
      audio.pause();
      audioRef.current = null;
    };
  }, [src]);

  const fresh = state !== 'paused' && state !== 'playing';
  const disabled = state === 'error' || (fresh && !canStartPlay);

  const toggle = () => {
    const audio = audioRef.current;
    if (!audio || pending.current || disabled) return;
    if (state === 'playing') {
      audio.pause();
      setState('paused');
      return;
    }
    if (state === 'ended') audio.currentTime = 0;
    pending.current = true;
    setBlocked(false);
    // Loading may be clicked too: some phones fetch audio only when asked to play.
    void Promise.resolve(audio.play()).then(
      () => {
        pending.current = false;
        setState('playing');
        if (fresh) onPlayStarted?.();
      },
      (err: unknown) => {
        pending.current = false;
        const name = err instanceof Error || err instanceof DOMException ? err.name : '';
        if (name === 'NotAllowedError') setBlocked(true);
        else if (name !== 'AbortError') setState('error');
      },
    );
  };

  return (
    <div className="flex flex-col gap-1">
      <Button
        variant={state === 'error' ? 'danger' : state === 'playing' ? 'secondary' : 'primary'}
        size="sm"
        className="w-28"
        onClick={toggle}
        disabled={disabled}
        data-audio-state={state}
      >
        {LABELS[state]}
      </Button>
      {state === 'error' ? (
        <p role="alert" className="text-xs font-medium text-red-700">
          {QuizMessages.audioLoadFailed}
        </p>
      ) : blocked ? (
        <p role="status" className="text-xs text-amber-800">
          {QuizMessages.audioBlocked}
        </p>
      ) : null}
    </div>
  );
}

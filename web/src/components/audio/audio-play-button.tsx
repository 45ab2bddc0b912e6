import { useEffect, useRef, useState } from 'react';
import { Button } from '@/components/ui';
import { AUDIO_VOLUME, AudioMessages } from './audio.constants';
import { playableAudioUrl } from './audio-source';

export type AudioPlayState = 'loading' | 'ready' | 'playing' | 'paused' | 'ended' | 'error';

/** Why the button reached 'error': the audio did not load, or the browser refused to play it. */
export type AudioFailure = 'load' | 'play';

const LABELS: Record<AudioPlayState, string> = {
  loading: 'Loading',
  ready: 'Play',
  playing: 'Pause',
  paused: 'Play',
  ended: 'Replay',
  error: 'Error',
};

export interface AudioPlayButtonProps {
  /** The audio link as stored; cloud-storage links are played through the audio proxy (`playableAudioUrl`). */
  src: string;
  /** False when the play limit is used up: a new play (from the start) is refused, a paused one may resume. */
  canStartPlay?: boolean;
  /** Called once each time a play from the start begins (the play limit counts these). */
  onPlayStarted?: () => void;
  /** Called once when the button reaches its Error state. */
  onError?: (failure: AudioFailure) => void;
  /** Called with every state the button shows, starting with 'loading'. */
  onStateChange?: (state: AudioPlayState) => void;
  /**
   * When a file that fails to load shows Error. 'load' (default): at once. 'play': only once the person presses
   * Play — until then the button offers Play, and Play loads the file again and reports what happens. For lists of
   * many files, where a broken link must not raise alerts before anyone plays it (issue #34).
   */
  reportLoadError?: 'load' | 'play';
}

/**
 * Spec (classroom-tools §4) "Audio play button": Loading, then Play, Pause while playing, Replay after it ends, Error
 * on failure; volume 0.7. Render it with `key={src}` so a new link starts over at Loading.
 */
export function AudioPlayButton({
  src,
  canStartPlay = true,
  onPlayStarted,
  onError,
  onStateChange,
  reportLoadError = 'load',
}: AudioPlayButtonProps) {
  const [state, setState] = useState<AudioPlayState>('loading');
  const [failure, setFailure] = useState<AudioFailure>('load');
  const [blocked, setBlocked] = useState(false);
  const audioRef = useRef<HTMLAudioElement | null>(null);
  const pending = useRef(false);
  const listeners = useRef({ onError, onStateChange });
  const reported = useRef<AudioPlayState | null>(null);
  /** Whether the person has pressed Play yet, and a load failure kept back until they do ('play' reporting). */
  const pressed = useRef(false);
  const heldLoadError = useRef(false);
  const reportWhen = useRef(reportLoadError);

  useEffect(() => {
    listeners.current = { onError, onStateChange };
    reportWhen.current = reportLoadError;
  });

  useEffect(() => {
    if (reported.current === state) return;
    reported.current = state;
    listeners.current.onStateChange?.(state);
    if (state === 'error') listeners.current.onError?.(failure);
  }, [state, failure]);

  useEffect(() => {
    const audio = new Audio();
    audio.preload = 'auto';
    audio.volume = AUDIO_VOLUME;
    const onReady = () => setState((s) => (s === 'loading' ? 'ready' : s));
    const onEnded = () => setState('ended');
    const onLoadError = () => {
      if (reportWhen.current === 'play' && !pressed.current) {
        heldLoadError.current = true;
        setState((s) => (s === 'loading' ? 'ready' : s));
        return;
      }
      setFailure('load');
      setState('error');
    };
    audio.addEventListener('canplay', onReady);
    audio.addEventListener('loadedmetadata', onReady);
    audio.addEventListener('ended', onEnded);
    audio.addEventListener('error', onLoadError);
    audio.src = playableAudioUrl(src);
    audioRef.current = audio;
    return () => {
      audio.removeEventListener('canplay', onReady);
      audio.removeEventListener('loadedmetadata', onReady);
      audio.removeEventListener('ended', onEnded);
      audio.removeEventListener('error', onLoadError);
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
    pressed.current = true;
    if (heldLoadError.current) {
      // The preload failed before anyone asked: try the file again now that someone does.
      heldLoadError.current = false;
      audio.load();
    }
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
        else if (name !== 'AbortError') {
          setFailure('play');
          setState('error');
        }
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
          {AudioMessages.audioLoadFailed}
        </p>
      ) : blocked ? (
        <p role="status" className="text-xs text-amber-800">
          {AudioMessages.audioBlocked}
        </p>
      ) : null}
    </div>
  );
}

import { useEffect, useRef, useState } from 'react';
import { ClassroomMessages } from '@district/contracts/classroom';
import { playbackUrl, useAudioKit } from '../audio-kit';

/**
 * One file of an audio list: its name, the play button (through the audio proxy for cloud-storage links) and, when
 * the button reaches its Error state, the spec's 'Failed to play {name}. Please check the audio URL.'. The shared
 * button reports its state only in `data-audio-state`, so that attribute is observed.
 */
export function FilePlayer({ name, url }: { name: string; url: string }) {
  const { PlayButton, isCloudStorageLink } = useAudioKit();
  const src = playbackUrl(url, isCloudStorageLink);
  const box = useRef<HTMLDivElement>(null);
  const [failed, setFailed] = useState<string | null>(null);

  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const check = () => setFailed(el.querySelector('[data-audio-state="error"]') ? src : null);
    const observer = new MutationObserver(check);
    observer.observe(el, { subtree: true, attributes: true, attributeFilter: ['data-audio-state'], childList: true });
    return () => observer.disconnect();
  }, [src]);

  return (
    <li className="rounded-lg border border-slate-200 px-3 py-2">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <span className="min-w-0 break-words text-sm font-medium text-slate-800">{name}</span>
        <div ref={box} aria-label={`Play ${name}`} role="group">
          <PlayButton key={src} src={src} />
        </div>
      </div>
      {failed === src ? (
        <p role="alert" className="mt-1 text-sm font-medium text-red-700">
          {ClassroomMessages.playFailed(name)}
        </p>
      ) : null}
    </li>
  );
}

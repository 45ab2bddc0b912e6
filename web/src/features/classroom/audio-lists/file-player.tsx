import { useState } from 'react';
import { ClassroomMessages } from '@district/contracts/classroom';
import { AudioPlayButton } from '@/components/audio';

/**
 * One file of an audio list: its name, the shared play button (cloud-storage links play through the audio proxy)
 * and, once the button reports an error, the spec's 'Failed to play {name}. Please check the audio URL.'. A broken link
 * says so when the file is played, not while the list loads (issue #34).
 */
export function FilePlayer({ name, url }: { name: string; url: string }) {
  const [failedUrl, setFailedUrl] = useState<string | null>(null);

  return (
    <li className="rounded-lg border border-slate-200 px-3 py-2">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <span className="min-w-0 break-words text-sm font-medium text-slate-800">{name}</span>
        <div aria-label={`Play ${name}`} role="group">
          <AudioPlayButton key={url} src={url} reportLoadError="play" onError={() => setFailedUrl(url)} />
        </div>
      </div>
      {failedUrl === url ? (
        <p role="alert" className="mt-1 text-sm font-medium text-red-700">
          {ClassroomMessages.playFailed(name)}
        </p>
      ) : null}
    </li>
  );
}

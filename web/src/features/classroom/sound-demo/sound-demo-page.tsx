import { useId, useState } from 'react';
import { AudioPlayButton, AudioUrlTest } from '@/components/audio';
import { Card, CardBody, CardHeader, QueryState, Spinner, TextField } from '@/components/ui';
import { PageContainer, PageHeader } from '@/components/layout';
import { useSession } from '@/lib/auth';
import { useAudioLists } from '../api/audio-lists';
import { ClassroomTexts } from '../classroom.constants';
import { DEMO_QUIZ_SOUNDS } from './demo-sounds';

/** A letter of the Spanish alphabet with its recording (the tools feature's list, handed over by app/router.tsx). */
export interface AlphabetSound {
  letter: string;
  src: string;
}

function SoundRow({ name, src }: { name: string; src: string }) {
  return (
    <li className="flex items-center justify-between gap-3 rounded-lg border border-slate-200 px-3 py-2">
      <span className="min-w-0 break-words text-sm font-medium text-slate-800">{name}</span>
      <AudioPlayButton key={src} src={src} />
    </li>
  );
}

function AudioListSounds() {
  const { user } = useSession();
  const lists = useAudioLists(user !== null);
  if (!user) return <p className="text-sm text-slate-600">{ClassroomTexts.soundDemoSignIn}</p>;
  return (
    <QueryState
      query={lists}
      loadingView={<Spinner label="Loading audio lists…" />}
      errorTitle={ClassroomTexts.fetchAudioListsFailed}
      errorText={ClassroomTexts.tryAgainLater}
      empty={<p className="text-sm text-slate-600">{ClassroomTexts.noAudioLists}</p>}
    >
      {(all) => (
        <div className="space-y-4">
          {all.map((list) => (
            <section key={list.id} aria-label={`Audio list ${list.title}`}>
              <h3 className="mb-2 font-semibold text-slate-900">{list.title}</h3>
              <ul className="grid grid-cols-1 gap-2 sm:grid-cols-2">
                {list.audioFiles.map((file, i) => (
                  <SoundRow key={`${i}-${file.url}`} name={file.name} src={file.url} />
                ))}
              </ul>
            </section>
          ))}
        </div>
      )}
    </QueryState>
  );
}

function UrlTester() {
  const [url, setUrl] = useState('');
  const hintId = useId();
  return (
    <div className="space-y-3">
      <TextField
        label="Audio URL"
        type="url"
        inputMode="url"
        placeholder="https://example.com/audio.mp3"
        value={url}
        onChange={(e) => setUrl(e.target.value)}
        hint={<span id={hintId}>{ClassroomTexts.urlTesterHint}</span>}
      />
      <AudioUrlTest url={url} label="Test audio URL" />
    </div>
  );
}

/**
 * /sound-demo (linked from the admin dashboard): every sound the tools use — the alphabet's letters, the demo quiz's
 * recordings and the audio lists' files — each with the spec's play button, and an audio URL tester. The alphabet
 * belongs to the tools feature, so the app passes it in.
 */
export function SoundDemoPage({ alphabet }: { alphabet: readonly AlphabetSound[] }) {
  return (
    <PageContainer>
      <PageHeader title="Sound Demo" description={ClassroomTexts.soundDemoDescription} />
      <div className="space-y-6">
        <Card>
          <CardHeader title="Audio URL Tester" description={ClassroomTexts.urlTesterDescription} />
          <CardBody>
            <UrlTester />
          </CardBody>
        </Card>
        <Card>
          <CardHeader
            title="Spanish Alphabet"
            description={`${alphabet.length} letters, as the Spanish Alphabet tool plays them.`}
          />
          <CardBody>
            <ul className="grid grid-cols-1 gap-2 sm:grid-cols-2 lg:grid-cols-3" aria-label="Alphabet sounds">
              {alphabet.map((l) => (
                <SoundRow key={l.letter} name={l.letter} src={l.src} />
              ))}
            </ul>
          </CardBody>
        </Card>
        <Card>
          <CardHeader title="Demo Quiz Audio" description="The recordings of the demo audio quiz." />
          <CardBody>
            <ul
              className="grid grid-cols-1 gap-2 sm:grid-cols-2 lg:grid-cols-3"
              aria-label="Demo quiz sounds"
            >
              {DEMO_QUIZ_SOUNDS.map((s) => (
                <SoundRow key={s.src} name={s.name} src={s.src} />
              ))}
            </ul>
          </CardBody>
        </Card>
        <Card>
          <CardHeader
            title="Audio Lists"
            description="The files of every audio list (cloud-storage links play through the audio proxy)."
          />
          <CardBody>
            <AudioListSounds />
          </CardBody>
        </Card>
      </div>
    </PageContainer>
  );
}

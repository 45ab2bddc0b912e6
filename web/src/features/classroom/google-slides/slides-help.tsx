import { ClassroomMessages } from '@district/contracts/classroom';

/** Spec §2 help text: a presentation shows only when shared as 'Anyone with the link can view'. */
export function SlidesHelpText() {
  return (
    <>
      In Google Slides, choose Share and set General access to &lsquo;{ClassroomMessages.slidesSharingSetting}
      &rsquo;, then paste the presentation&rsquo;s link (or its Publish to the web link).
    </>
  );
}

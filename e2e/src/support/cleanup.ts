/**
 * Clean-ups of everything the suite started and has not stopped yet (servers, databases, temporary folders,
 * the browser), so an interrupted run — a signal even during start-up — leaves nothing behind.
 */
const cleanups = new Set<() => Promise<void>>();

/** Registers `fn`; the returned function runs it at most once, whether called directly or by cleanUpEverything(). */
export function registerCleanup(fn: () => Promise<void>): () => Promise<void> {
  let done: Promise<void> | undefined;
  const run = () => {
    cleanups.delete(run);
    done ??= fn();
    return done;
  };
  cleanups.add(run);
  return run;
}

export async function cleanUpEverything(): Promise<void> {
  await Promise.allSettled([...cleanups].map((c) => c()));
}

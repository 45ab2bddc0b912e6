/** Waits for `task` to settle or `timeoutMs` to pass; true when it settled. */
export async function settleWithin(task: Promise<unknown>, timeoutMs: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), timeoutMs);
  });
  const settled = task.then(
    () => true as const,
    () => true as const,
  );
  try {
    return await Promise.race([settled, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Waits until `running` is empty or `timeoutMs` passes; true when empty. Tasks must delete themselves from
 * the set when done (tasks added meanwhile are waited for too).
 */
export async function drain(running: Set<Promise<unknown>>, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (running.size > 0) {
    const left = deadline - Date.now();
    if (left <= 0) return false;
    await settleWithin(Promise.allSettled([...running]), left);
    // Let the tasks' own clean-up (which removes them from the set) run before checking again.
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
  return true;
}

export type ReadinessCheck = () => Promise<boolean> | boolean;

/** Named checks behind /readyz: the database and the bus must be reachable before traffic is sent here. */
export class Readiness {
  private readonly checks = new Map<string, ReadinessCheck>();

  add(name: string, check: ReadinessCheck): void {
    this.checks.set(name, check);
  }

  async evaluate(): Promise<{ ready: boolean; checks: Record<string, boolean> }> {
    const results: Record<string, boolean> = {};
    await Promise.all(
      [...this.checks].map(async ([name, check]) => {
        try {
          results[name] = await Promise.race([
            Promise.resolve(check()),
            new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 2000).unref()),
          ]);
        } catch {
          results[name] = false;
        }
      }),
    );
    return { ready: Object.values(results).every(Boolean), checks: results };
  }
}

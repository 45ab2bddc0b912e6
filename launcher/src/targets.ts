import type { ServiceDefinition } from '@district/nest-common';
import { assessmentService } from '@district/assessment';
import { chatService } from '@district/chat';
import { classroomService } from '@district/classroom';
import { contentService } from '@district/content';
import { identityService } from '@district/identity';

/**
 * The target registry: every service the platform runs, in one list. Adding a service is its own folder
 * plus one line here; `--target=all` starts them in dependency order and stops them in reverse. The rest
 * follows from it: the gateway's route table (each service's `routes`, in this order), its UPSTREAM_<NAME>
 * variables and the event stream's subjects. Only the Helm values list the services again, checked
 * against this by deploy/test/service-list.spec.ts.
 */
export const SERVICES: readonly ServiceDefinition[] = [
  identityService,
  contentService,
  chatService,
  assessmentService,
  classroomService,
];

export const GATEWAY_TARGET = 'gateway';

export function serviceNames(): string[] {
  return SERVICES.map((s) => s.name);
}

/**
 * The subjects of the event stream: `<name>.>` for every registered service, whatever this process runs,
 * since every process that connects brings the one stream's subjects in line with its own list.
 */
export function streamSubjects(services: readonly ServiceDefinition[] = SERVICES): string[] {
  return services.map((s) => `${s.name}.>`);
}

/** Expands `all`, checks names, and orders services so that dependencies start first. */
export function resolveTargets(requested: string[]): { services: ServiceDefinition[]; gateway: boolean } {
  const known = new Set([...serviceNames(), GATEWAY_TARGET, 'all']);
  const unknown = requested.filter((t) => !known.has(t));
  if (unknown.length) {
    throw new Error(
      `Unknown target(s): ${unknown.join(', ')}. Known targets: all, ${GATEWAY_TARGET}, ${serviceNames().join(', ')}`,
    );
  }
  const all = requested.includes('all');
  const wanted = new Set(all ? serviceNames() : requested.filter((t) => t !== GATEWAY_TARGET));
  return {
    services: dependencyOrder(SERVICES.filter((s) => wanted.has(s.name))),
    gateway: all || requested.includes(GATEWAY_TARGET),
  };
}

export function dependencyOrder(services: readonly ServiceDefinition[]): ServiceDefinition[] {
  const byName = new Map(services.map((s) => [s.name, s]));
  const ordered: ServiceDefinition[] = [];
  const state = new Map<string, 'visiting' | 'done'>();
  const visit = (s: ServiceDefinition, trail: string[]) => {
    if (state.get(s.name) === 'done') return;
    if (state.get(s.name) === 'visiting')
      throw new Error(`Service dependency cycle: ${[...trail, s.name].join(' -> ')}`);
    state.set(s.name, 'visiting');
    for (const dep of s.dependsOn) {
      const d = byName.get(dep);
      if (d) visit(d, [...trail, s.name]);
    }
    state.set(s.name, 'done');
    ordered.push(s);
  };
  for (const s of services) visit(s, []);
  return ordered;
}

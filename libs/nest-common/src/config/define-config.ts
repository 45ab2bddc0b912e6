import type { ValueProvider } from '@nestjs/common';
import { z } from 'zod';
import { parseEnv, type Env } from './config';

/**
 * The one way a process reads its settings (ADR 0038). A service, the gateway, the launcher and the platform each
 * declare their variables once with `defineConfig(name, shape)`; the definition is registered, so the tests can
 * check every variable (an empty value means unset, the README's table lists it with its default), and a service
 * reads it once in its root module (`provide(runtime)`), its code taking the result by `token`.
 */

/** In a key, one variable per registered service: `UPSTREAM_<SERVICE>` is UPSTREAM_IDENTITY, UPSTREAM_CHAT, … */
export const PER_SERVICE = '<SERVICE>';

export type ConfigShape = Record<string, z.ZodType>;

type PerServiceKey = `${string}<SERVICE>${string}`;

/** What the schema gives: a per-service key holds a map from service name to that service's value. */
export type ConfigValues<S extends ConfigShape> = {
  [K in keyof S]: K extends PerServiceKey ? Record<string, z.output<S[K]>> : z.output<S[K]>;
};

export interface ConfigOptions<S extends ConfigShape, T> {
  /**
   * Checks that span keys; `problem(key, message)` adds one. They run even when single keys are wrong, so one start
   * reports every problem (the values of wrong keys are then as given, not parsed).
   */
  check?: (values: ConfigValues<S>, problem: (key: keyof S & string, message: string) => void) => void;
  /** The typed settings the code takes, made from the checked values (the values themselves when omitted). */
  build?: (values: ConfigValues<S>) => T;
  /**
   * What an unset key means where its schema gives no value of its own, because the code works it out (the
   * embedded database, `http://localhost:$PORT`): the README's default column says exactly this.
   */
  unset?: { [K in keyof S]?: string };
}

export interface LoadContext {
  /** The registered services' names, for the per-service keys. */
  services?: readonly string[];
  /** Names the process in the error (a service reading the platform's section names itself). */
  label?: string;
}

export interface ConfigDefinition<S extends ConfigShape = ConfigShape, T = unknown> {
  readonly name: string;
  readonly shape: S;
  /** The DI token under which a root module provides the settings. */
  readonly token: symbol;
  readonly unset: Readonly<Record<string, string>>;
  /** Reads `env`: an empty value is unset; a bad value throws ConfigError listing every problem. */
  load(env: Env, context?: LoadContext): T;
  /** The checked values, before `build` (for a process that shares some of another's variables). */
  values(env: Env, context?: LoadContext): ConfigValues<S>;
  /** For a root module's `providers`: the settings read once, from the runtime's environment. */
  provide(runtime: { env: Env }, context?: LoadContext): ValueProvider<T>;
}

const registry = new Map<string, ConfigDefinition>();

/** Every definition made so far (those of the modules loaded), in order. */
export function registeredConfigs(): readonly ConfigDefinition[] {
  return [...registry.values()];
}

/** An empty value counts as unset, for every key of every schema: compose, Helm and shells pass `VAR=`. */
export function withoutEmpty(env: Env): Record<string, string> {
  const set: Record<string, string> = {};
  for (const [key, value] of Object.entries(env)) if (value !== undefined && value !== '') set[key] = value;
  return set;
}

export const isPerService = (key: string): boolean => key.includes(PER_SERVICE);

export const perServiceKey = (key: string, service: string): string =>
  key.replace(PER_SERVICE, service.toUpperCase());

export function defineConfig<S extends ConfigShape, T = ConfigValues<S>>(
  name: string,
  shape: S,
  options: ConfigOptions<S, T> = {},
): ConfigDefinition<S, T> {
  if (registry.has(name)) throw new Error(`Configuration "${name}" is defined twice`);
  const schemaFor = (services: readonly string[]) => {
    const fields: Record<string, z.ZodType> = {};
    for (const [key, field] of Object.entries(shape)) {
      if (!isPerService(key)) fields[key] = field;
      else for (const service of services) fields[perServiceKey(key, service)] = field;
    }
    const object = z.object(fields);
    const check = options.check;
    if (!check) return object;
    return object.superRefine(
      (values, ctx) =>
        check(group(values, services), (key, message) =>
          ctx.addIssue({ code: 'custom', path: [key], message }),
        ),
      { when: () => true },
    );
  };
  const group = (parsed: Record<string, unknown>, services: readonly string[]): ConfigValues<S> => {
    const values: Record<string, unknown> = {};
    for (const key of Object.keys(shape)) {
      values[key] = isPerService(key)
        ? Object.fromEntries(services.map((service) => [service, parsed[perServiceKey(key, service)]]))
        : parsed[key];
    }
    return values as ConfigValues<S>;
  };
  const definition: ConfigDefinition<S, T> = {
    name,
    shape,
    token: Symbol(`${name} config`),
    unset: Object.fromEntries(
      Object.entries(options.unset ?? {}).filter(([, v]) => v !== undefined),
    ) as Record<string, string>,
    values(env, context = {}) {
      const services = context.services ?? [];
      const parsed = parseEnv(context.label ?? name, schemaFor(services), withoutEmpty(env));
      return group(parsed as Record<string, unknown>, services);
    },
    load(env, context) {
      const values = definition.values(env, context);
      return options.build ? options.build(values) : (values as unknown as T);
    },
    provide(runtime, context) {
      return { provide: definition.token, useValue: definition.load(runtime.env, context) };
    },
  };
  registry.set(name, definition as ConfigDefinition);
  return definition;
}

/** One documented variable: its name (per-service ones as `UPSTREAM_<SERVICE>`) and its default as the README shows it. */
export interface DocumentedVariable {
  variable: string;
  /** `` `3000` ``, the definition's `unset` text, or `—` when unset means nothing is set. */
  default: string;
  /** The definitions that read it. */
  readBy: string[];
}

/** The schema's own value for an unset key, as the README shows it. */
export function documentedDefault(definition: ConfigDefinition, key: string): string {
  const text = definition.unset[key];
  if (text !== undefined) return text;
  const result = definition.shape[key].safeParse(undefined);
  const value: unknown = result.success ? result.data : undefined;
  if (value === undefined || (Array.isArray(value) && value.length === 0)) return '—';
  return `\`${Array.isArray(value) ? value.join(',') : String(value)}\``;
}

/** Every variable of every registered definition, with its default; a variable read by several must agree. */
export function documentedVariables(definitions = registeredConfigs()): DocumentedVariable[] {
  const byName = new Map<string, DocumentedVariable>();
  for (const definition of definitions) {
    for (const key of Object.keys(definition.shape)) {
      const value = documentedDefault(definition, key);
      const known = byName.get(key);
      if (!known) byName.set(key, { variable: key, default: value, readBy: [definition.name] });
      else if (known.default !== value)
        throw new Error(
          `${key} has two defaults: ${known.default} (${known.readBy.join(', ')}) and ${value} (${definition.name})`,
        );
      else known.readBy.push(definition.name);
    }
  }
  return [...byName.values()];
}

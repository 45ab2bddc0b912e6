import { Controller, Get, Inject, RequestMethod, SetMetadata, type Type } from '@nestjs/common';
import {
  HTTP_CODE_METADATA,
  METHOD_METADATA,
  PATH_METADATA,
  ROUTE_ARGS_METADATA,
} from '@nestjs/common/constants';
import { RouteParamtypes } from '@nestjs/common/enums/route-paramtypes.enum';
import { ModulesContainer } from '@nestjs/core';
import { z } from 'zod';
import { SESSION_COOKIE } from '../auth/token.service';
import {
  IS_PUBLIC,
  Public,
  REQUIRE_ADMIN,
  REQUIRE_APPROVAL,
  REQUIRE_ROLES,
  type RoleRule,
} from '../auth/decorators';
import { SERVICE_NAME } from './tokens';
import { ZodPipe } from './zod.pipe';

/**
 * OpenAPI 3.1 of a service, read from what Nest already knows: each controller's paths and methods, the zod
 * schemas of its `ZodPipe`s (bodies, queries, params — through zod's own JSON Schema output, so the document
 * and the validation can never disagree), its HTTP codes and its auth decorators. No DTO classes or per-route
 * annotations to keep in step (ADR 0010). Responses are described by status and the shared error shape.
 */

type JsonSchema = Record<string, unknown>;

export interface OpenApiOperation {
  operationId: string;
  tags: string[];
  summary: string;
  'x-access': Access;
  parameters?: Array<{ name: string; in: 'path' | 'query'; required: boolean; schema: JsonSchema }>;
  requestBody?: { required: boolean; content: Record<string, { schema: JsonSchema }> };
  responses: Record<string, { description: string; content?: Record<string, { schema: JsonSchema }> }>;
  security?: Array<Record<string, string[]>>;
}

export interface OpenApiDocument {
  openapi: '3.1.0';
  info: { title: string; version: string; description?: string };
  paths: Record<string, Partial<Record<HttpVerb, OpenApiOperation>>>;
  components: {
    securitySchemes: Record<string, JsonSchema>;
    schemas: Record<string, JsonSchema>;
  };
}

type HttpVerb = 'get' | 'post' | 'put' | 'patch' | 'delete' | 'head' | 'options';
export type Access = 'public' | 'signed-in' | 'approved' | 'admin' | string;

const VERBS: Partial<Record<RequestMethod, HttpVerb>> = {
  [RequestMethod.GET]: 'get',
  [RequestMethod.POST]: 'post',
  [RequestMethod.PUT]: 'put',
  [RequestMethod.PATCH]: 'patch',
  [RequestMethod.DELETE]: 'delete',
  [RequestMethod.HEAD]: 'head',
  [RequestMethod.OPTIONS]: 'options',
};

/** Platform routes every service has; the gateway answers its own versions, so they are left out. */
export const PLATFORM_PATHS: ReadonlySet<string> = new Set([
  '/healthz',
  '/readyz',
  '/statusz',
  '/metrics',
  '/openapi.json',
]);

const ERROR_SCHEMA: JsonSchema = {
  type: 'object',
  required: ['statusCode', 'message'],
  properties: {
    statusCode: { type: 'integer' },
    message: { type: 'string' },
    requestId: { type: 'string' },
    errors: { type: 'array', items: { type: 'object' } },
  },
};

const errorResponse = (description: string) => ({
  description,
  content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
});

interface RouteArg {
  index: number;
  data?: string;
  pipes?: unknown[];
}

function jsonSchemaOf(schema: z.ZodType): JsonSchema {
  const out = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
  delete out.$schema;
  return out;
}

function joinPaths(...parts: string[]): string {
  const joined = `/${parts
    .map((p) => p.replace(/^\/+|\/+$/g, ''))
    .filter(Boolean)
    .join('/')}`;
  return joined.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
}

const DOCUMENTED_ACCESS = 'openapi:access';
/**
 * For a route that is public at the guard but checks the caller itself (to answer with the spec's own message):
 * what the document should say about who may call it.
 */
export const DocumentAccess = (access: Access) => SetMetadata(DOCUMENTED_ACCESS, access);

function accessOf(controller: Type, handler: object): Access {
  const read = <T>(key: string): T | undefined =>
    (Reflect.getMetadata(key, handler) as T | undefined) ??
    (Reflect.getMetadata(key, controller) as T | undefined);
  const documented = read<Access>(DOCUMENTED_ACCESS);
  if (documented) return documented;
  if (read<boolean>(IS_PUBLIC)) return 'public';
  if (read<boolean>(REQUIRE_ADMIN)) return 'admin';
  const roles = read<RoleRule>(REQUIRE_ROLES);
  if (roles) return roles.roles.join(' or ');
  if (read<boolean>(REQUIRE_APPROVAL)) return 'approved';
  return 'signed-in';
}

function zodPipeOf(arg: RouteArg): z.ZodType | undefined {
  const pipe = (arg.pipes ?? []).find((p): p is ZodPipe<z.ZodType> => p instanceof ZodPipe);
  return pipe?.schema;
}

function describeOperation(
  service: string,
  controller: Type,
  methodName: string,
  handler: object,
  verb: HttpVerb,
  path: string,
): OpenApiOperation {
  const access = accessOf(controller, handler);
  const args = Object.entries(
    (Reflect.getMetadata(ROUTE_ARGS_METADATA, controller, methodName) as
      Record<string, RouteArg> | undefined) ?? {},
  );
  const parameters: NonNullable<OpenApiOperation['parameters']> = [];
  let requestBody: OpenApiOperation['requestBody'];
  let validated = false;
  for (const [key, arg] of args) {
    const type = Number(key.split(':')[0]);
    const schema = zodPipeOf(arg);
    if (schema) validated = true;
    if (type === RouteParamtypes.BODY) {
      requestBody = {
        required: true,
        content: { 'application/json': { schema: schema ? jsonSchemaOf(schema) : { type: 'object' } } },
      };
    } else if (type === RouteParamtypes.QUERY) {
      const properties = schema
        ? ((jsonSchemaOf(schema).properties as Record<string, JsonSchema>) ?? {})
        : {};
      const required = new Set(schema ? ((jsonSchemaOf(schema).required as string[]) ?? []) : []);
      if (arg.data)
        parameters.push({ name: arg.data, in: 'query', required: false, schema: { type: 'string' } });
      for (const [name, property] of Object.entries(properties))
        parameters.push({ name, in: 'query', required: required.has(name), schema: property });
    }
  }
  for (const [, name] of path.matchAll(/\{([A-Za-z0-9_]+)\}/g))
    parameters.push({ name, in: 'path', required: true, schema: { type: 'string' } });
  // The multipart uploads: content's image (field `image`) and identity's roster zip (field `file`).
  const uploadField =
    verb !== 'post'
      ? undefined
      : path.endsWith('/upload-image')
        ? 'image'
        : path.endsWith('/roster/imports')
          ? 'file'
          : undefined;
  if (uploadField)
    requestBody = {
      required: true,
      content: {
        'multipart/form-data': {
          schema: { type: 'object', properties: { [uploadField]: { type: 'string', format: 'binary' } } },
        },
      },
    };

  const declared = Reflect.getMetadata(HTTP_CODE_METADATA, handler) as number | undefined;
  const success = declared ?? (verb === 'post' ? 201 : 200);
  const responses: OpenApiOperation['responses'] = {
    [String(success)]: success === 204 ? { description: 'Done, no content' } : { description: 'Success' },
  };
  if (validated || requestBody)
    responses['400'] = errorResponse('Invalid input (the message says which field)');
  if (access !== 'public') responses['401'] = errorResponse('Authentication Required');
  if (access !== 'public' && access !== 'signed-in')
    responses['403'] = errorResponse('Not allowed for this account');
  if (path.includes('{')) responses['404'] = errorResponse('Not found');

  const name = controller.name.replace(/Controller$/, '');
  return {
    operationId: `${service}.${name}.${methodName}`,
    tags: [service],
    summary: `${name}: ${methodName.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase()}`,
    'x-access': access,
    ...(parameters.length ? { parameters } : {}),
    ...(requestBody ? { requestBody } : {}),
    responses,
    ...(access === 'public' ? {} : { security: [{ session: [] }] }),
  };
}

export interface ControllerRoute {
  /** Upper-case HTTP method. */
  method: string;
  verb: HttpVerb;
  /** OpenAPI style: `/api/posts/{id}`. */
  path: string;
  controller: Type;
  methodName: string;
  handler: object;
}

/** Every route handler registered in the app's modules, read from Nest's own metadata. */
export function controllerRoutes(modules: ModulesContainer): ControllerRoute[] {
  const found: ControllerRoute[] = [];
  for (const module of modules.values()) {
    for (const wrapper of module.controllers.values()) {
      const controller = wrapper.metatype as Type | null;
      if (!controller?.prototype) continue;
      const base = (Reflect.getMetadata(PATH_METADATA, controller) as string | undefined) ?? '';
      for (const methodName of Object.getOwnPropertyNames(controller.prototype)) {
        if (methodName === 'constructor') continue;
        const handler = (controller.prototype as Record<string, unknown>)[methodName];
        if (typeof handler !== 'function') continue;
        const route = Reflect.getMetadata(PATH_METADATA, handler) as string | string[] | undefined;
        const method = Reflect.getMetadata(METHOD_METADATA, handler) as RequestMethod | undefined;
        const verb = method === undefined ? undefined : VERBS[method];
        if (route === undefined || !verb) continue;
        for (const one of Array.isArray(route) ? route : [route])
          found.push({
            method: verb.toUpperCase(),
            verb,
            path: joinPaths(base, one),
            controller,
            methodName,
            handler,
          });
      }
    }
  }
  return found;
}

/** The OpenAPI document of every controller registered in the app's modules. */
export function buildOpenApiDocument(
  modules: ModulesContainer,
  service: string,
  version = '1',
): OpenApiDocument {
  const paths: OpenApiDocument['paths'] = {};
  for (const route of controllerRoutes(modules)) {
    if (PLATFORM_PATHS.has(route.path)) continue;
    (paths[route.path] ??= {})[route.verb] = describeOperation(
      service,
      route.controller,
      route.methodName,
      route.handler,
      route.verb,
      route.path,
    );
  }
  const sorted = Object.fromEntries(Object.entries(paths).sort(([a], [b]) => a.localeCompare(b)));
  return {
    openapi: '3.1.0',
    info: { title: `${service} service`, version },
    paths: sorted,
    components: {
      securitySchemes: { session: { type: 'apiKey', in: 'cookie', name: SESSION_COOKIE } },
      schemas: { Error: ERROR_SCHEMA },
    },
  };
}

/** `GET /openapi.json` on every service; the gateway merges them under `/api/docs`. */
@Controller()
export class OpenApiController {
  private document?: OpenApiDocument;

  constructor(
    @Inject(ModulesContainer) private readonly modules: ModulesContainer,
    @Inject(SERVICE_NAME) private readonly service: string,
  ) {}

  @Public()
  @Get('openapi.json')
  openApi(): OpenApiDocument {
    this.document ??= buildOpenApiDocument(this.modules, this.service);
    return this.document;
  }
}

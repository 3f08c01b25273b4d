import { expect } from 'vitest';
import { API, type Method, type TestApp } from '../api/helpers.ts';
import { ENTITIES } from '../../contract/entities.ts';
import type { EntityDeclaration } from '../../contract/entity.ts';
import { FILE_KINDS, type FileKind, type Side } from './world.ts';

export interface Route {
  method: Method;
  /** OpenAPI path, `{param}` style. */
  path: string;
  key: string;
  op: OpenApiOperation;
}

export interface OpenApiSchema {
  type?: string | string[];
  properties?: Record<string, OpenApiSchema>;
  required?: string[];
  items?: OpenApiSchema;
  enum?: unknown[];
  anyOf?: OpenApiSchema[];
  oneOf?: OpenApiSchema[];
  allOf?: OpenApiSchema[];
  format?: string;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  const?: unknown;
  additionalProperties?: boolean | OpenApiSchema;
}

export interface OpenApiOperation {
  parameters?: { in: 'path' | 'query' | 'header'; name: string; required?: boolean; schema?: OpenApiSchema }[];
  requestBody?: { content: Record<string, { schema?: OpenApiSchema }> };
}

export interface OpenApiDocument {
  paths: Record<string, Record<string, OpenApiOperation>>;
}

/**
 * Routes that need no bearer token, each with the reason. Everything else the app serves under
 * /api must answer 401 without one.
 */
export const PUBLIC_ROUTES: Record<string, string> = {
  [`POST ${API}/login`]: 'sign-in',
  [`POST ${API}/login/code`]: 'second step of sign-in (a challenge from /login)',
  [`POST ${API}/login/code/resend`]: 'second step of sign-in (a challenge from /login)',
  [`POST ${API}/forgot_password`]: 'password recovery',
  [`POST ${API}/reset_password`]: 'password recovery (the link token is the credential)',
  [`GET ${API}/live`]: 'server-sent events: EventSource cannot send headers, a one-minute single-use ticket is the credential',
  'GET /api/public/voting/{token}': "co-owners' voting page: the link token and a one-time code are the credentials",
  'POST /api/public/voting/{token}/code': "co-owners' voting",
  'POST /api/public/voting/{token}/verify': "co-owners' voting",
  'GET /api/public/voting/{token}/ballot': "co-owners' voting (session from /verify)",
  'POST /api/public/voting/{token}/ballot': "co-owners' voting (session from /verify)",
  'POST /api/public/voting/{token}/ballot/document': "co-owners' voting (session from /verify)",
  'GET /api/staff/chat/{token}': 'staff chat by link: the link token is the credential',
  'POST /api/staff/chat/{token}': 'staff chat by link',
  'GET /api/staff/chat/{token}/media/{key}': 'staff chat by link',
};

/** Served by the app but left out of the OpenAPI document on purpose. */
export const UNDOCUMENTED: Record<string, string> = {
  [`GET ${API}/openapi.json`]: 'the OpenAPI document itself',
  [`GET ${API}/docs`]: 'the documentation page',
};

/** Every operation of the app, from its own OpenAPI document (generated from the route table). */
export async function collectRoutes(t: TestApp): Promise<{ doc: OpenApiDocument; routes: Route[] }> {
  const res = await t.call('GET', `${API}/openapi.json`);
  expect(res.statusCode).toBe(200);
  const doc = res.json() as OpenApiDocument;
  const routes: Route[] = [];
  for (const [path, ops] of Object.entries(doc.paths)) {
    for (const [m, op] of Object.entries(ops)) {
      const method = m.toUpperCase() as Method;
      routes.push({ method, path, key: `${method} ${path}`, op });
    }
  }
  return { doc, routes };
}

/**
 * The router's own table (`printRoutes`), flattened to "METHOD /path/{param}" keys, HEAD left
 * out: proves that the OpenAPI document lists every route the app answers.
 */
export function printedRoutes(t: TestApp): string[] {
  const out: string[] = [];
  const stack: { depth: number; path: string }[] = [];
  for (const line of t.app.printRoutes({ commonPrefix: false }).split('\n')) {
    const match = /^([│ ]*)(?:├── |└── )(.*?)(?: \(([A-Z, ]+)\))?$/.exec(line);
    if (!match) continue;
    const depth = match[1].length / 4;
    while (stack.length && stack[stack.length - 1].depth >= depth) stack.pop();
    const parent = stack.length ? stack[stack.length - 1].path : '';
    const path = parent + match[2];
    stack.push({ depth, path });
    if (!match[3]) continue;
    // Two routes declared the same parameter under different names: `:id|:votingId`.
    const normalised = path.replace(/:(\w+)(\|:\w+)*/g, '{}');
    for (const method of match[3].split(', ')) if (method !== 'HEAD') out.push(`${method} ${normalised}`);
  }
  return out;
}

/** Organization-wide routes: no row of a complex lies behind their path parameters. */
const ORGANIZATION_WIDE_NAMES = [
  'house-types',
  'service-request-types',
  'service_request-types',
  'staff_departure',
  'staff_role',
  'streets',
  'contacts_groups',
  'resident-roles',
  'outbox',
  'notifications',
  'setting',
  'user',
  'logout',
  'setup',
  'chat',
  'live',
  'find',
  'dashboard',
  'saved-views',
];
export const ORGANIZATION_WIDE = new RegExp(['^/api/admin/(', ORGANIZATION_WIDE_NAMES.join('|'), ')(/|$)'].join(''));

/**
 * The routes that serve a file named by its `{key}`, and the kinds of file each serves (through
 * the record in its path, or — for /media — through a record the user may view, or as the
 * uploader's own fresh upload). Every other kind must answer 404 there, even to a user who may
 * see the file elsewhere. A new route with a `{key}` is not filled until it is listed here.
 */
export const FILE_ROUTES: Record<string, readonly FileKind[]> = {
  [`${API}/media/{key}`]: ['upload', 'articleCover', 'eventPicture', 'adImage'],
  [`${API}/service_request/{id}/media/{key}`]: ['requestPhoto', 'staffChatPhoto', 'memberChatPhoto', 'linkChatPhoto'],
  '/api/staff/chat/{token}/media/{key}': ['staffChatPhoto', 'linkChatPhoto'],
};

/** One way to fill a route's path; `file` and `serves` when it names a file. */
export interface Filled {
  url: string;
  file?: FileKind;
  /** Whether the route serves this kind of file (for side A: the control expects 200). */
  serves?: boolean;
}

/**
 * Every way to fill a path with side `s`'s fixtures: a file parameter is filled with a file of
 * EVERY kind the side has, other parameters with the one fixture they name. Undefined when a
 * parameter names nothing known.
 */
export function fillPaths(path: string, s: Side): Filled[] | undefined {
  const base = fillWith(path, s, undefined);
  if (base === undefined) return undefined;
  if (!/\{key\}/.test(path)) return [{ url: base }];
  const kinds = FILE_ROUTES[path];
  if (!kinds) return undefined;
  return FILE_KINDS.filter((k) => s.files[k]).map((k) => ({ url: fillWith(path, s, k)!, file: k, serves: kinds.includes(k) }));
}

/** The first way to fill a path (for a file parameter: a kind the route serves). */
export function fillPath(path: string, s: Side): string | undefined {
  const all = fillPaths(path, s);
  return (all?.find((f) => f.serves !== false) ?? all?.[0])?.url;
}

function fillWith(path: string, s: Side, file: FileKind | undefined): string | undefined {
  let missing = false;
  const url = path.replace(/\{(\w+)\}/g, (_all, name: string, offset: number) => {
    const before = path.slice(0, offset);
    const id =
      name === 'key'
        ? file
          ? s.files[file]?.key
          : ''
        : name === 'token' && /\/api\/staff\/chat\/$/.test(before)
          ? s.chatLinkToken
          : paramId(path, before, name, s);
    if (id === undefined) missing = true;
    return String(id);
  });
  return missing ? undefined : url;
}

function paramId(path: string, before: string, name: string, s: Side): number | undefined {
  if (/\/voting\/$/.test(before)) return path.includes('/ballots/') ? s.ballot?.votingId : s.votingId;
  if (name === 'ballotId') return s.ballot?.ballotId;
  if (name === 'residentId') return s.memberId;
  if (name === 'linkId') return s.chatLinkId;
  const segment = /\/([\w-]+)\/$/.exec(before)?.[1];
  const table: Record<string, number | undefined> = {
    // Declared entities' records, unless the side has a richer one of its own (a member with units, a request with files and chats).
    ...Object.fromEntries((ENTITIES as readonly EntityDeclaration[]).map((e) => [e.path.slice(1), s.entities[e.name]])),
    houses: s.houseId,
    members: s.memberId,
    residents: s.residentId,
    service_request: s.requestId,
    chat: s.requestId,
    comments: s.commentId,
    // Declared entities whose routes need the side's own fixture (an article holding the cover, a meeting with ballots).
    articles: s.articleId,
    interview: s.interviewId,
    voting: s.votingId,
    advertisement: s.advertisementId,
    documents: s.documentId,
    staff: s.staffId,
    'saved-views': s.savedViewId,
  };
  return segment ? table[segment] : undefined;
}

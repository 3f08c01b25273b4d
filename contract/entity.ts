import type { z } from 'zod';
import type { Area } from './permissions.ts';

/**
 * How a list answer is wrapped (docs/architecture.md, "The contract"):
 * - main_data:        { main_data: { data: [...], current_page, ... } }
 * - data_pagination:  { data: [...], pagination: { current_page, ... } }
 * - data.data:        { data: { data: [...], current_page, ... } }
 * - data_list:        { data: [...] } — the whole list, no pages (staff departures and roles)
 */
export type ListShape = 'main_data' | 'data_pagination' | 'data.data' | 'data_list';
/**
 * How a single record is wrapped: under `data` (default) or `main_data`; `list_id` answers the
 * whole new list in `data` and the record's `id` beside it (staff departures and roles), and a
 * single read of such a resource picks the record out of the list; `none`: the API has no
 * single-record call (bills are read and written per member and month).
 */
export type ItemShape = 'data' | 'main_data' | 'list_id' | 'none';

/** The API calls of one react-admin resource: paths, wrappers, methods. */
export interface ResourceDeclaration {
  /** API path under /api/admin. */
  path: string;
  /** Permission area that guards it. */
  area: Area;
  list: ListShape;
  one: ItemShape;
  create: ItemShape;
  update: ItemShape;
  /** Method used for updates (most use PUT; news uses POST /articles/{id}). */
  updateMethod: 'PUT' | 'POST';
  /** How create and update bodies travel: JSON (default) or multipart forms (files). */
  encoding: 'json' | 'multipart';
}

export const declareResource = (d: Pick<ResourceDeclaration, 'path' | 'area' | 'list'> & Partial<ResourceDeclaration>): ResourceDeclaration => ({
  one: 'data',
  create: 'data',
  update: 'data',
  updateMethod: 'PUT',
  encoding: 'json',
  ...d,
});

/**
 * What a field is, for every side at once: the form's input, the list's column and its cell, the
 * export's cell. `reference` names another resource (`reference`), shown by `optionText`.
 */
export type FieldType =
  'text' | 'multiline' | 'richtext' | 'url' | 'phone' | 'email' | 'number' | 'enum' | 'boolean' | 'reference' | 'date' | 'datetime' | 'tags' | 'file';
// 'richtext': HTML that the server sanitises (the rich text editor in the form, its plain text in lists and exports).
// 'tags': records a row refers to, as `{ id, name }[]` (computed; `input: false`): chips in the
// list, names joined by commas in the export.
// 'file': the file part of a multipart form (`encoding: 'multipart'`, one per entity), of the kind
// `accept` says; `required` means required when the record is created (an update keeps the file
// unless a new one comes). The input schema names it with `fileInput` (contract/common.ts).

export interface FieldDeclaration {
  type: FieldType;
  /**
   * The Ukrainian label: the export's column header and the SPA's Ukrainian label
   * (`resources.<name>.fields.<field>` is built from it; English is in src/i18n/en.ts).
   */
  label: string;
  /** Required in the form (the input schema is what the server enforces). */
  required?: boolean;
  /** Text: longest length; number: largest value. */
  max?: number;
  /** Number: smallest value. */
  min?: number;
  /** Enum: the values; their labels are `resources.<name>.options.<field>.<value>` in the SPA and `optionLabels` in exports. */
  options?: readonly string[];
  optionLabels?: Readonly<Record<string, string>>;
  /** File: what it accepts (the server's upload rules of that kind: pictures, or documents and scans). */
  accept?: 'image' | 'document';
  /** Reference: the resource it names and the field of that resource shown for it. */
  reference?: string;
  optionText?: string;
  /** A column of the list (default true). */
  list?: boolean;
  /** The list can be sorted by it (the server's sort enum comes from these). */
  sortable?: boolean;
  /** An input of the form (default true); false for what the server computes (an address, a date of creation). */
  input?: boolean;
  /** A column of the export (default: what `list` says). */
  export?: boolean;
  /**
   * A hint under the form's input: the Ukrainian text (another locale's is
   * `resources.<name>.hints.<field>`), or `true` when only the catalogue carries it.
   */
  hint?: boolean | string;
  /** A long text column: the list shows it wrapped, the export wider. */
  wide?: boolean;
  /** The record field the list shows for it instead of the stored value (e.g. a formatted phone). */
  display?: string;
  /**
   * What the server keeps of a typed value, when it is narrower than free text (a vehicle plate:
   * letters and digits only): the form's hint of it, and suites know such a field never holds
   * arbitrary text.
   */
  pattern?: string;
}

/** A file in a sample body (the suites send it as the form's file part). */
export interface SampleFile {
  file: Uint8Array;
  name: string;
  type: string;
}

/** A list filter: a field whose value narrows the list (`?house_id=3`), with the input it takes. */
export interface FilterDeclaration {
  source: string;
  type: 'reference' | 'enum' | 'boolean';
  /** Reference filters: the resource and the shown field. */
  reference?: string;
  optionText?: string;
  options?: readonly string[];
}

/** Whose rows these are: the organization's, or also limited to a staff member's complexes (through a complex or a house). */
export type ScopeKind = 'organization' | 'complex' | 'house';

export interface EntityDeclaration<
  Input extends z.ZodType = z.ZodType,
  Rec extends z.ZodType = z.ZodType,
  Name extends string = string,
> extends ResourceDeclaration {
  /** The react-admin resource name. */
  name: Name;
  input: Input;
  record: Rec;
  /** Fields in the order of the form, the list and the export. */
  fields: Readonly<Record<string, FieldDeclaration>>;
  filters: readonly FilterDeclaration[];
  /** The fields `search_query` looks in (and the SPA shows a search box when there are any). */
  search: readonly string[];
  sort: { field: string; order: 'asc' | 'desc' };
  /** Named orders that are not a field (realty's `house`: by house, then by number); the server says their keys. */
  sorts?: readonly string[];
  /** The order a sort takes when the call names none, where it is not `sort.order` (service requests: deadlines soonest first). */
  sortOrders?: Readonly<Record<string, 'asc' | 'desc'>>;
  /** What an update accepts, when it is not `input` (service requests: any of the fields, or a stage move). */
  updateInput?: z.ZodType;
  /**
   * The fields the list's bulk actions set on many records at once: `PATCH <path>` with
   * `{ ids, ...fields }` (contract/bulk.ts); the implementation's `bulk` hook changes one row.
   */
  bulkInput?: z.ZodObject;
  scope: ScopeKind;
  /** Where the form opens: a dialog over the list (plain entities) or a page of its own. */
  form: 'dialog' | 'page';
  /** What the server answers (Ukrainian). */
  messages: { notFound: string; deleted: string; inUse: string };
  /** File name of exports, without the extension (and their sheet's name). */
  exportName: string;
  /** The file name's stem when it is not `exportName` (an export that kept the name it had before its declaration). */
  exportFile?: string;
  /** A valid body for create and update, given a house and a complex of the caller's scope (tests and the security suite use it). */
  sample: (ctx: SampleContext) => z.input<Input>;
  /** What a delete answers: `{ message }` (default) or `{ data: { id } }` (general meetings); whole lists answer the new list. */
  deleteAnswer?: 'message' | 'data_id';
  /** Page size of the list when the call does not say (default 15). */
  perPage?: number;
  /**
   * The Ukrainian words of its screen (another locale's are `resources.<name>.<key>` in its
   * catalogue, src/i18n/en.ts): `name` in polyglot's plural forms (one |||| few |||| many).
   */
  texts?: EntityTexts;
  /** The SQL table, when it is not the name with `_` for `-` (the server finds the Drizzle table by it). */
  table?: string;
  /**
   * A screen of its own, built from the declaration alone, when no module of the SPA carries one
   * (docs/adding-an-entity.md): its path, the record field that names a record (in references and
   * titles), its sidebar item (in a group of the sidebar, at `order` among the others; its label
   * is `texts.title`) and its old addresses under /dashboard_old.
   */
  screen?: {
    path: string;
    recordRepresentation?: string;
    menu?: { group?: 'requests' | 'community' | 'realty' | 'staff'; order: number; icon?: string };
    legacy?: readonly string[];
  };
  /**
   * Resources that are not declared entities (e.g. `members`) whose records `sample` refers to:
   * the suites pass an id of one of the same complex in `ctx.refs`.
   */
  sampleRefs?: readonly string[];
}

/** The words of an entity's screen (Ukrainian, in the declaration). */
export interface EntityTexts {
  name: string;
  title: string;
  create_title: string;
  edit_title: string;
  empty: string;
  created: string;
}

/**
 * What a sample body may use: a house and a complex of the caller's scope, a unique word, and
 * `refs` — one record of each declared entity listed before this one in ENTITIES, in the same
 * complex (for entities that refer to other declared entities, e.g. a contact to its section),
 * and of each resource named in `sampleRefs`.
 */
export interface SampleContext {
  houseId: number;
  complexId: number;
  unique: string;
  refs: Readonly<Record<string, number>>;
}

type Defaults = 'one' | 'create' | 'update' | 'updateMethod' | 'encoding' | 'filters' | 'search' | 'form';
export type EntityDefinition<Input extends z.ZodType, Rec extends z.ZodType, Name extends string> = Omit<EntityDeclaration<Input, Rec, Name>, Defaults> &
  Partial<Pick<EntityDeclaration<Input, Rec, Name>, Defaults>>;

/** One entity: everything the API, the screens, the exports and the tests know about it. */
export function defineEntity<Input extends z.ZodType, Rec extends z.ZodType, const Name extends string>(
  d: EntityDefinition<Input, Rec, Name>,
): EntityDeclaration<Input, Rec, Name> {
  return { ...declareResource(d), filters: [], search: [], form: 'dialog', ...d };
}

/** The fields a list can be sorted by: `id` and every sortable field. */
export const sortFields = (e: Pick<EntityDeclaration, 'fields' | 'sorts'>): string[] => [
  'id',
  ...Object.entries(e.fields)
    .filter(([, f]) => f.sortable)
    .map(([k]) => k),
  ...(e.sorts ?? []),
];

/** List columns, in order. */
export const listFields = (e: Pick<EntityDeclaration, 'fields'>) => Object.entries(e.fields).filter(([, f]) => f.list !== false);

/** Form inputs, in order. */
export const inputFields = (e: Pick<EntityDeclaration, 'fields'>) => Object.entries(e.fields).filter(([, f]) => f.input !== false);

/** Export columns, in order. */
export const exportFields = (e: Pick<EntityDeclaration, 'fields'>) => Object.entries(e.fields).filter(([, f]) => f.export ?? f.list !== false);

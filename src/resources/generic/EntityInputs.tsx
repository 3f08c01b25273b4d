import { lazy, Suspense } from 'react';
import {
  AutocompleteInput,
  BooleanInput,
  FileField,
  FileInput,
  maxLength,
  maxValue,
  minValue,
  NumberInput,
  ReferenceInput,
  required,
  SelectInput,
  TextInput,
  type Validator,
} from 'react-admin';
import { inputFields, type EntityDeclaration, type FieldDeclaration } from '../../../contract/entity';
import { UkDateInput, UkDateTimeInput } from '../../components/inputs/DateInputs';
import { useEntityLabels } from './labels';

const RichTextField = lazy(() => import('../../components/content/RichTextField').then((m) => ({ default: m.RichTextField })));

/** What a file input offers to pick, by the declared kind (the server checks the bytes). */
const FILE_ACCEPT = {
  image: { 'image/jpeg': [], 'image/png': [], 'image/webp': [], 'image/gif': [] },
  document: { 'application/pdf': [], 'application/*': ['.doc', '.docx', '.xls', '.xlsx', '.odt', '.ods'], 'image/jpeg': [], 'image/png': [] },
};

/** The form's validators of a field, from its declaration (the server checks the same and more). */
function validators(field: FieldDeclaration): Validator[] {
  const v: Validator[] = [];
  if (field.required) v.push(required());
  if (field.max !== undefined) v.push(field.type === 'number' ? maxValue(field.max) : maxLength(field.max));
  if (field.min !== undefined && field.type === 'number') v.push(minValue(field.min));
  return v;
}

/** One input, by the field's type. */
export function EntityInput({ entity, source, field }: { entity: EntityDeclaration; source: string; field: FieldDeclaration }) {
  const labels = useEntityLabels(entity);
  const validate = validators(field);
  const hint = labels.hint(source);
  const label = labels.field(source);
  const common = { source, label, validate, helperText: hint, fullWidth: true };
  switch (field.type) {
    case 'reference':
      return (
        <ReferenceInput source={source} reference={field.reference!} perPage={50} sort={{ field: field.optionText ?? 'name', order: 'ASC' }}>
          <AutocompleteInput
            optionText={field.optionText ?? 'name'}
            label={label}
            filterToQuery={(q) => ({ q })}
            validate={validate}
            helperText={hint}
            fullWidth
          />
        </ReferenceInput>
      );
    case 'enum':
      return <SelectInput {...common} choices={(field.options ?? []).map((id) => ({ id, name: labels.option(source, id) }))} />;
    case 'number':
      return <NumberInput {...common} />;
    case 'boolean':
      return <BooleanInput source={source} label={label} helperText={hint} />;
    case 'date':
      return <UkDateInput {...common} />;
    case 'datetime':
      return <UkDateTimeInput {...common} />;
    case 'file':
      // Required only for a new record, which the server checks: an edit keeps the file it has.
      return (
        <FileInput source={source} label={label} helperText={hint} accept={FILE_ACCEPT[field.accept ?? 'document']}>
          <FileField source="src" title="title" />
        </FileInput>
      );
    case 'multiline':
      return <TextInput {...common} multiline minRows={3} />;
    case 'richtext':
      // The editor is large: it loads with the first form that has such a field.
      return (
        <Suspense fallback={<TextInput {...common} multiline minRows={3} disabled />}>
          <RichTextField source={source} label={label} required={field.required} />
        </Suspense>
      );
    case 'email':
      return <TextInput {...common} type="email" />;
    case 'phone':
      return <TextInput {...common} type="tel" />;
    default:
      return <TextInput {...common} />;
  }
}

/** Every input of a declared entity's form, in the declared order. */
export function EntityInputs({ entity }: { entity: EntityDeclaration }) {
  return (
    <>
      {inputFields(entity).map(([source, field]) => (
        <EntityInput key={source} entity={entity} source={source} field={field} />
      ))}
    </>
  );
}

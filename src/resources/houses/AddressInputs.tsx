import { useEffect, useState } from 'react';
import { Autocomplete, Box, TextField, Typography } from '@mui/material';
import { useInput, useTranslate } from 'react-admin';
import { useFormContext, useWatch } from 'react-hook-form';
import type { City, Street } from '../../../contract/reference';
import { apiFetch } from '../../dataProvider/http';

const CATEGORY_PREFIX: Record<string, string> = { К: 'м.', М: 'м.', Х: 'с-ще', С: 'с.' };

/** «м. Львів» plus region and district, so that same-named settlements can be told apart. */
export function cityLabel(c: Pick<City, 'name' | 'category'>): string {
  return `${CATEGORY_PREFIX[c.category] ?? ''} ${c.name}`.trim();
}
function cityDetails(c: City): string {
  if (c.category === 'К') return '';
  return [c.region && `${c.region} обл.`, c.district && `${c.district} р-н`].filter(Boolean).join(', ');
}

/** Debounced look-up through GET /find/…; results replace each other in order. */
function useLookup<T>(path: string, query: Record<string, unknown> | null, text: string): { options: T[]; loading: boolean } {
  const [state, setState] = useState<{ options: T[]; loading: boolean }>({ options: [], loading: false });
  const key = JSON.stringify([path, query, text]);
  useEffect(() => {
    if (query === null) return;
    const controller = new AbortController();
    const timer = setTimeout(() => {
      setState((s) => ({ ...s, loading: true }));
      apiFetch<{ data: T[] }>(path, { query: { ...query, search_query: text }, signal: controller.signal })
        .then((r) => setState({ options: r.data, loading: false }))
        .catch(() => setState((s) => ({ ...s, loading: false })));
    }, 250);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
    // key holds path, query and text
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key]);
  return state;
}

/** City autocomplete over GET /find/city; stores city_id. */
export function CityInput({ initial }: { initial?: City | null }) {
  const translate = useTranslate();
  const { field, fieldState, isRequired } = useInput({ source: 'city_id', validate: (v) => (v ? undefined : 'app.auth.required') });
  const { setValue } = useFormContext();
  const [selected, setSelected] = useState<City | null>(initial ?? null);
  const [text, setText] = useState('');
  const { options, loading } = useLookup<City>('/find/city', {}, text);
  return (
    <Autocomplete<City>
      options={options}
      value={selected}
      loading={loading}
      filterOptions={(x) => x}
      isOptionEqualToValue={(a, b) => a.id === b.id}
      getOptionLabel={cityLabel}
      onInputChange={(_e, value, reason) => reason === 'input' && setText(value)}
      onChange={(_e, value) => {
        setSelected(value);
        field.onChange(value?.id ?? null);
        // Another city means another street list.
        setValue('street_id', null, { shouldDirty: true });
        setValue('street_name', '', { shouldDirty: true });
      }}
      noOptionsText={translate('resources.houses.lookup.nothing')}
      loadingText={translate('ra.page.loading')}
      renderOption={(props, option) => (
        <Box component="li" {...props} key={option.id} sx={{ display: 'block !important' }}>
          <Typography>{cityLabel(option)}</Typography>
          <Typography variant="caption" color="text.secondary">
            {cityDetails(option)}
          </Typography>
        </Box>
      )}
      renderInput={(params) => (
        <TextField
          {...params}
          label={`${translate('resources.houses.fields.city')}${isRequired ? ' *' : ''}`}
          error={Boolean(fieldState.error)}
          helperText={fieldState.error ? translate(fieldState.error.message ?? '') : translate('resources.houses.lookup.city_hint')}
        />
      )}
    />
  );
}

/** Street autocomplete over GET /find/street for the chosen city; a typed new name is sent as street_name. */
export function StreetInput({ initial }: { initial?: { id: number; name: string; type: string | null } | null }) {
  const translate = useTranslate();
  const cityId = useWatch({ name: 'city_id' }) as number | null;
  const { field: idField, fieldState: idState } = useInput({ source: 'street_id' });
  const { field: nameField, fieldState: nameState } = useInput({ source: 'street_name', defaultValue: '' });
  // The server may refuse either the chosen street or the typed name: both show here.
  const error = idState.error ?? nameState.error;
  const [text, setText] = useState(initial ? initial.name : '');
  const [selected, setSelected] = useState<Street | string | null>(
    initial ? ({ ...initial, city_id: cityId ?? 0, district: null, source: 'reference' } as Street) : null,
  );
  const { options, loading } = useLookup<Street>('/find/street', cityId ? { city_id: cityId } : null, text);
  const label = (s: Street | string) => (typeof s === 'string' ? s : [s.type, s.name].filter(Boolean).join(' '));
  return (
    <Autocomplete<Street | string, false, false, true>
      freeSolo
      disabled={!cityId}
      options={options}
      value={selected}
      loading={loading}
      filterOptions={(x) => x}
      getOptionLabel={label}
      isOptionEqualToValue={(a, b) => typeof a !== 'string' && typeof b !== 'string' && a.id === b.id}
      onInputChange={(_e, value, reason) => {
        if (reason !== 'input') return;
        setText(value);
        // Typing a name that is not chosen from the list: it is added to the streets on save.
        idField.onChange(null);
        nameField.onChange(value);
      }}
      onChange={(_e, value) => {
        setSelected(value);
        if (value && typeof value !== 'string') {
          idField.onChange(value.id);
          nameField.onChange('');
        } else {
          idField.onChange(null);
          nameField.onChange(value ?? '');
        }
      }}
      renderOption={(props, option) => (
        <Box component="li" {...props} key={typeof option === 'string' ? option : option.id}>
          {label(option)}
          {typeof option !== 'string' && option.district && (
            <Typography variant="caption" color="text.secondary" sx={{ ml: 1 }}>
              {option.district}
            </Typography>
          )}
        </Box>
      )}
      renderInput={(params) => (
        <TextField
          {...params}
          label={`${translate('resources.houses.fields.street')} *`}
          error={Boolean(error)}
          helperText={error ? translate(error.message ?? '') : translate(cityId ? 'resources.houses.lookup.street_hint' : 'resources.houses.lookup.city_first')}
        />
      )}
    />
  );
}

import { useEffect, useRef, useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Dialog, DialogActions, DialogContent, DialogTitle, IconButton, ListItemIcon, ListItemText, Menu, MenuItem, TextField } from '@mui/material';
import BookmarkAddOutlined from '@mui/icons-material/BookmarkAddOutlined';
import BookmarksOutlined from '@mui/icons-material/BookmarksOutlined';
import Check from '@mui/icons-material/Check';
import DeleteOutline from '@mui/icons-material/DeleteOutline';
import EditOutlined from '@mui/icons-material/EditOutlined';
import { HttpError, useNotify, useTranslate } from 'react-admin';
import { SAVED_VIEW_NAME_MAX, type SavedView, type SavedViewList } from '../../../contract/savedViews';
import { apiFetch } from '../../dataProvider/http';
import { toViewQuery, type ListSort } from './urlListState';

/** The user's own saved views on the server (contract/savedViews.ts). */
export const savedViewsApi = {
  list: (list: SavedViewList) => apiFetch<{ data: SavedView[] }>('/saved-views', { query: { list } }).then((r) => r.data),
  create: (list: SavedViewList, name: string, query: string) =>
    apiFetch<{ data: SavedView }>('/saved-views', { method: 'POST', body: { list, name, query } }).then((r) => r.data),
  update: (id: number, body: { name?: string; query?: string }) =>
    apiFetch<{ data: SavedView }>(`/saved-views/${id}`, { method: 'PUT', body }).then((r) => r.data),
  remove: (id: number) => apiFetch(`/saved-views/${id}`, { method: 'DELETE' }),
};

/** Views this browser kept before they moved to the server: where they were and how to read them. */
export interface BrowserViews {
  key: string;
  read: (stored: unknown) => { name: string; query: string }[];
}

const sameName = (a: string, b: string) => a.trim().toLocaleLowerCase('uk') === b.trim().toLocaleLowerCase('uk');

/**
 * Moves the views a browser kept into the user's saved views, once: a view the server refuses (a
 * name taken, the limit reached) is dropped; on a network failure they stay for the next visit.
 */
async function moveBrowserViews(list: SavedViewList, from: BrowserViews, existing: SavedView[]): Promise<boolean> {
  const raw = localStorage.getItem(from.key);
  if (raw === null) return false;
  let stored: unknown = [];
  try {
    stored = JSON.parse(raw);
  } catch {
    stored = [];
  }
  let keep = false;
  for (const v of from.read(stored)) {
    if (!v.name.trim() || existing.some((e) => sameName(e.name, v.name))) continue;
    try {
      await savedViewsApi.create(list, v.name.trim().slice(0, SAVED_VIEW_NAME_MAX), v.query);
    } catch (err) {
      if (!(err instanceof HttpError) || err.status < 400 || err.status >= 500) keep = true;
    }
  }
  if (!keep) localStorage.removeItem(from.key);
  return true;
}

export interface SavedViewsProps {
  list: SavedViewList;
  /** The list's filters and sort as the address holds them (useUrlListState's `viewQuery`). */
  query: string;
  /** The list's default sort: a view saved without one has it. */
  defaultSort?: ListSort;
  /** False while the filters are the list's defaults: there is nothing to save. */
  canSave: boolean;
  onApply: (query: string) => void;
  fromBrowser?: BrowserViews;
}

type Naming = { mode: 'save'; name: string } | { mode: 'rename'; view: SavedView; name: string };

/**
 * A list's saved views, the signed-in user's own on the server: «Збережені вигляди» opens them
 * (the open one is ticked; each can be renamed or deleted), «Зберегти вигляд» keeps the current
 * filters and sort under a name (a name that exists is replaced).
 */
export function SavedViews({ list, query, defaultSort, canSave, onApply, fromBrowser }: SavedViewsProps) {
  const translate = useTranslate();
  const notify = useNotify();
  const client = useQueryClient();
  const queryKey = ['saved-views', list];
  const { data: views = [], isSuccess, error } = useQuery({ queryKey, queryFn: () => savedViewsApi.list(list) });
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const [naming, setNaming] = useState<Naming | null>(null);
  const [fieldError, setFieldError] = useState('');
  const [busy, setBusy] = useState(false);
  const reload = () => client.invalidateQueries({ queryKey });

  const moving = useRef(false);
  useEffect(() => {
    if (!isSuccess || !fromBrowser || moving.current) return;
    moving.current = true;
    void moveBrowserViews(list, fromBrowser, views).then((moved) => (moved ? reload() : undefined));
    // Once, after the first answer.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [isSuccess]);

  const current = toViewQuery(query, defaultSort);
  const same = naming?.mode === 'save' ? views.find((v) => sameName(v.name, naming.name)) : undefined;

  const close = () => {
    setNaming(null);
    setFieldError('');
  };
  const submit = async () => {
    if (!naming || !naming.name.trim()) return;
    const name = naming.name.trim();
    setBusy(true);
    try {
      if (naming.mode === 'rename') {
        await savedViewsApi.update(naming.view.id, { name });
        notify('app.saved_views.renamed', { type: 'success', messageArgs: { name } });
      } else {
        if (same) await savedViewsApi.update(same.id, { query: current });
        else await savedViewsApi.create(list, name, current);
        notify('app.saved_views.saved', { type: 'success', messageArgs: { name } });
      }
      close();
      await reload();
    } catch (err) {
      const e = err as HttpError & { body?: { errors?: Record<string, string> } };
      setFieldError(e.body?.errors?.name ?? e.body?.errors?.query ?? e.message);
    } finally {
      setBusy(false);
    }
  };
  const rename = (view: SavedView) => {
    setAnchor(null);
    setNaming({ mode: 'rename', view, name: view.name });
  };
  const remove = async (view: SavedView) => {
    try {
      await savedViewsApi.remove(view.id);
      notify('app.saved_views.deleted', { type: 'info', messageArgs: { name: view.name } });
    } catch (err) {
      notify((err as Error).message, { type: 'error' });
    }
    await reload();
  };

  return (
    <>
      <Button size="small" startIcon={<BookmarksOutlined />} onClick={(e) => setAnchor(e.currentTarget)} aria-haspopup="menu">
        {translate('app.saved_views.title')}
      </Button>
      <Button size="small" startIcon={<BookmarkAddOutlined />} onClick={() => setNaming({ mode: 'save', name: '' })} disabled={!canSave}>
        {translate('app.saved_views.save')}
      </Button>
      <Menu anchorEl={anchor} open={Boolean(anchor)} onClose={() => setAnchor(null)}>
        {error ? <MenuItem disabled>{translate('app.saved_views.load_failed')}</MenuItem> : null}
        {!error && views.length === 0 && <MenuItem disabled>{translate('app.saved_views.empty')}</MenuItem>}
        {views.map((v) => {
          const open = toViewQuery(v.query, defaultSort) === current;
          return (
            <MenuItem
              key={v.id}
              selected={open}
              onClick={() => {
                onApply(v.query);
                setAnchor(null);
              }}
              // The row's buttons are out of the menu's arrow keys: F2 renames, Delete deletes.
              aria-keyshortcuts="F2 Delete"
              onKeyDown={(e) => {
                if (e.key === 'F2') rename(v);
                else if (e.key === 'Delete') void remove(v);
              }}
            >
              <ListItemIcon>{open && <Check fontSize="small" titleAccess={translate('app.saved_views.current')} />}</ListItemIcon>
              <ListItemText sx={{ mr: 1 }}>{v.name}</ListItemText>
              <IconButton
                size="small"
                aria-label={translate('app.saved_views.rename', { name: v.name })}
                onClick={(e) => {
                  e.stopPropagation();
                  rename(v);
                }}
              >
                <EditOutlined fontSize="small" />
              </IconButton>
              <IconButton
                size="small"
                edge="end"
                aria-label={translate('app.saved_views.delete', { name: v.name })}
                onClick={(e) => {
                  e.stopPropagation();
                  void remove(v);
                }}
              >
                <DeleteOutline fontSize="small" />
              </IconButton>
            </MenuItem>
          );
        })}
      </Menu>
      <Dialog open={naming !== null} onClose={close} maxWidth="xs" fullWidth>
        <form
          onSubmit={(e) => {
            e.preventDefault();
            void submit();
          }}
        >
          <DialogTitle>{translate(naming?.mode === 'rename' ? 'app.saved_views.rename_title' : 'app.saved_views.save')}</DialogTitle>
          <DialogContent>
            <TextField
              autoFocus
              fullWidth
              margin="dense"
              label={translate('app.saved_views.name')}
              value={naming?.name ?? ''}
              onChange={(e) => {
                setFieldError('');
                setNaming((n) => (n ? { ...n, name: e.target.value } : n));
              }}
              error={Boolean(fieldError)}
              helperText={fieldError || (same ? translate('app.saved_views.replace_hint') : ' ')}
              slotProps={{ htmlInput: { maxLength: SAVED_VIEW_NAME_MAX } }}
            />
          </DialogContent>
          <DialogActions>
            <Button onClick={close}>{translate('app.actions.cancel')}</Button>
            <Button type="submit" variant="contained" disabled={busy || !naming?.name.trim()}>
              {translate('app.actions.save')}
            </Button>
          </DialogActions>
        </form>
      </Dialog>
    </>
  );
}

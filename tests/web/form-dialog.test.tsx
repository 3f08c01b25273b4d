import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { useState } from 'react';
import { QueryClient } from '@tanstack/react-query';
import { AdminContext, TestMemoryRouter, TextInput, type DataProvider } from 'react-admin';
import { describe, expect, it, vi } from 'vitest';
import { ResourceFormDialog } from '../../src/components/ResourceFormDialog';
import { i18nProvider } from '../../src/i18n';

const dataProvider = { create: vi.fn(async (_r: string, p: { data: object }) => ({ data: { id: 1, ...p.data } })) } as unknown as DataProvider;

function Harness({ onClose }: { onClose: () => void }) {
  const [target, setTarget] = useState<'create' | null>('create');
  return (
    <ResourceFormDialog
      resource="cameras"
      target={target}
      onClose={() => {
        onClose();
        setTarget(null);
      }}
      title={{ create: 'Нова камера', edit: 'Камера' }}
      notifications={{ created: 'ok', updated: 'ok' }}
    >
      <TextInput source="name" label="Назва" />
    </ResourceFormDialog>
  );
}

const renderDialog = (onClose: () => void) =>
  render(
    <TestMemoryRouter>
      <AdminContext dataProvider={dataProvider} i18nProvider={i18nProvider}>
        <Harness onClose={onClose} />
      </AdminContext>
    </TestMemoryRouter>,
  );

const escape = () => fireEvent.keyDown(screen.getByRole('dialog', { name: 'Нова камера' }), { key: 'Escape' });

describe('a form dialog with unsaved changes', () => {
  it('closes at once on Esc when nothing was typed', async () => {
    const onClose = vi.fn();
    renderDialog(onClose);
    await screen.findByLabelText('Назва');
    escape();
    expect(onClose).toHaveBeenCalledTimes(1);
  });

  it('asks before discarding on Esc and on «Скасувати», and keeps the text when the user goes back', async () => {
    const onClose = vi.fn();
    renderDialog(onClose);
    const input = (await screen.findByLabelText('Назва')) as HTMLInputElement;
    fireEvent.change(input, { target: { value: 'Вхід 1' } });
    await waitFor(() => expect(input.value).toBe('Вхід 1'));

    escape();
    fireEvent.click(await screen.findByRole('button', { name: 'Повернутися до редагування' }));
    expect(onClose).not.toHaveBeenCalled();
    expect((screen.getByLabelText('Назва') as HTMLInputElement).value).toBe('Вхід 1');

    fireEvent.click(await screen.findByRole('button', { name: 'Скасувати' }));
    expect(await screen.findByText('Відкинути зміни?')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Відкинути' }));
    expect(onClose).toHaveBeenCalledTimes(1);
  });
});

describe('an edit dialog whose record reloads while the user types', () => {
  it('keeps what was typed and takes the fields the user has not touched from the fresh record', async () => {
    // The list put a short copy of the record in the cache; the full record arrives later.
    let deliver: (record: object) => void = () => undefined;
    const getOne = vi.fn(() => new Promise((resolve) => (deliver = (record) => resolve({ data: record }))));
    const queryClient = new QueryClient();
    queryClient.setQueryData(['complexes', 'getOne', { id: '7', meta: undefined }], { id: 7, name: 'Липовий гай', city: 'Суми' });
    render(
      <TestMemoryRouter>
        <AdminContext dataProvider={{ getOne } as unknown as DataProvider} i18nProvider={i18nProvider} queryClient={queryClient}>
          <ResourceFormDialog
            resource="complexes"
            target={7}
            onClose={() => undefined}
            title={{ create: 'Новий комплекс', edit: 'Редагування комплексу' }}
            notifications={{ created: 'ok', updated: 'ok' }}
          >
            <TextInput source="name" label="Назва" />
            <TextInput source="city" label="Місто" />
            <TextInput source="address" label="Адреса" />
          </ResourceFormDialog>
        </AdminContext>
      </TestMemoryRouter>,
    );
    const city = (await screen.findByLabelText('Місто')) as HTMLInputElement;
    await waitFor(() => expect(city.value).toBe('Суми'));
    fireEvent.change(city, { target: { value: 'Чернігів' } });
    await waitFor(() => expect(getOne).toHaveBeenCalled());

    act(() => deliver({ id: 7, name: 'Липовий гай', city: 'Суми', address: 'вул. Соборна, 1' }));
    const address = screen.getByLabelText('Адреса') as HTMLInputElement;
    await waitFor(() => expect(address.value).toBe('вул. Соборна, 1'));
    expect(city.value).toBe('Чернігів');
    expect((screen.getByLabelText('Назва') as HTMLInputElement).value).toBe('Липовий гай');
  });
});

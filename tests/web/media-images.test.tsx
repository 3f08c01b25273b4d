import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { AdminContext, Form, memoryStore, RecordContextProvider } from 'react-admin';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ChatMessage } from '../../contract/serviceRequests';
import { TOKEN_KEY } from '../../src/authStorage';
import { FileImageInput } from '../../src/components/content/FileImageInput';
import { ImageInput } from '../../src/components/content/ImageInput';
import { i18nProvider } from '../../src/i18n';
import { ChatPanel } from '../../src/customPages/request/ChatPanel';

/**
 * Pictures are shown from the URL the API gives (a random key per file, served only through the
 * record that holds it), fetched with the session's token: covers, fresh uploads, advertisement
 * pictures and chat photos. The SPA never builds a file URL from an id.
 */
const COVER = `/api/admin/media/${'a'.repeat(32)}`;
const FRESH = `/api/admin/media/${'b'.repeat(32)}`;
const AD = `/api/admin/media/${'c'.repeat(32)}`;
const PHOTO = `/api/admin/service_request/11/media/${'d'.repeat(32)}`;

let fetchMock: ReturnType<typeof vi.fn>;
const picture = () => new Response(new Uint8Array([0x89, 0x50, 0x4e, 0x47]), { status: 200, headers: { 'content-type': 'image/png' } });
/** The shown picture: an <img> whose source is the fetched blob (not the broken-picture placeholder). */
const shown = async (name?: string) => waitFor(() => expect(screen.getByRole('img', name ? { name } : {}).getAttribute('src')).toMatch(/^blob:picture-/));

beforeEach(() => {
  localStorage.clear();
  localStorage.setItem(TOKEN_KEY, 'session-token');
  fetchMock = vi.fn(async (url: RequestInfo | URL, init?: RequestInit) => {
    const u = String(url);
    if (u === '/api/admin/media' && init?.method === 'POST') {
      return new Response(JSON.stringify({ data: { id: 9, kind: 'image', name: 'нова.png', mime: 'image/png', size: 4, url: FRESH } }), {
        status: 200,
        headers: { 'content-type': 'application/json' },
      });
    }
    if ([COVER, FRESH, AD, PHOTO].includes(u)) return picture();
    return new Response(JSON.stringify({ message: 'Файл не знайдено.' }), { status: 404, headers: { 'content-type': 'application/json' } });
  });
  vi.stubGlobal('fetch', fetchMock);
  let n = 0;
  vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: vi.fn(() => `blob:picture-${++n}`), revokeObjectURL: vi.fn() }));
});
afterEach(() => vi.unstubAllGlobals());

const fetchedWithToken = (url: string) =>
  fetchMock.mock.calls.some(
    ([u, init]) =>
      String(u) === url && (init as RequestInit | undefined)?.headers && (init!.headers as Record<string, string>).Authorization === 'Bearer session-token',
  );

function inForm(record: Record<string, unknown>, children: React.ReactNode) {
  return render(
    <AdminContext i18nProvider={i18nProvider} store={memoryStore()}>
      <RecordContextProvider value={record}>
        <Form record={record}>{children}</Form>
      </RecordContextProvider>
    </AdminContext>,
  );
}

describe('pictures in the SPA', () => {
  it("a news cover shows from the record's image_url, fetched with the token", async () => {
    inForm({ id: 1, image_id: 5, image_url: COVER }, <ImageInput source="image_id" urlSource="image_url" label="resources.articles.fields.image_id" />);
    await waitFor(() => expect(fetchedWithToken(COVER)).toBe(true));
    await shown();
    // Nothing is asked by the picture's id.
    expect(fetchMock.mock.calls.some(([u]) => /\/media\/5$/.test(String(u)))).toBe(false);
  });

  it('a freshly uploaded cover shows from the URL its upload answered', async () => {
    inForm({ id: 1, image_id: 5, image_url: COVER }, <ImageInput source="image_id" urlSource="image_url" label="resources.articles.fields.image_id" />);
    await waitFor(() => expect(fetchedWithToken(COVER)).toBe(true));
    const input = screen.getByTestId('image_id-file') as HTMLInputElement;
    fireEvent.change(input, { target: { files: [new File([new Uint8Array([1, 2, 3])], 'нова.png', { type: 'image/png' })] } });
    await waitFor(() => expect(fetchedWithToken(FRESH)).toBe(true));
    expect(fetchMock.mock.calls.some(([u]) => /\/media\/9$/.test(String(u)))).toBe(false);
  });

  it("an advertisement's picture shows from its URL", async () => {
    inForm({ id: 3, image: AD }, <FileImageInput source="image" removeSource="remove_image" label="resources.advertisements.fields.image" />);
    await waitFor(() => expect(fetchedWithToken(AD)).toBe(true));
    await shown();
  });

  it("a chat photo shows from its file's URL", async () => {
    const message: ChatMessage = {
      id: 1,
      chat_type: 'staff_chat',
      message: 'Фото з місця',
      author: { kind: 'staff', id: 3, name: 'Андрій Мельник', via_link: false },
      files: [{ id: 77, kind: 'image', name: 'місце.png', mime: 'image/png', size: 4, url: PHOTO }],
      edited_at: null,
      created_at: '2026-03-01T11:00:00.000Z',
      can_edit: false,
    };
    render(
      <AdminContext i18nProvider={i18nProvider} store={memoryStore()}>
        <ChatPanel messages={[message]} />
      </AdminContext>,
    );
    await waitFor(() => expect(fetchedWithToken(PHOTO)).toBe(true));
    await shown('місце.png');
  });
});

import type { MediaFile } from '../../../contract/media';
import type {
  ChatLink,
  ChatMessage,
  ChatType,
  LinkChat,
  NotificationItem,
  RequestStage,
  ServiceRequestDetail,
  ServiceRequestForm,
  ServiceRequestInput,
  ServiceRequestUpdate,
} from '../../../contract/serviceRequests';
import { apiFetch } from '../../dataProvider/http';

/** Calls of the request screens beyond the list (which goes through the data provider). */
export const requestApi = {
  form: (houseId?: number) => apiFetch<{ form: ServiceRequestForm }>('/service_request/form', { query: { house_id: houseId } }).then((r) => r.form),
  get: (id: number | string, signal?: AbortSignal) => apiFetch<{ data: ServiceRequestDetail }>(`/service_request/${id}`, { signal }).then((r) => r.data),
  create: (body: Partial<ServiceRequestInput>) => apiFetch<{ data: ServiceRequestDetail }>('/service_request', { method: 'POST', body }).then((r) => r.data),
  update: (id: number, body: ServiceRequestUpdate) =>
    apiFetch<{ data: ServiceRequestDetail }>(`/service_request/${id}`, { method: 'PUT', body }).then((r) => r.data),
  move: (id: number, stage: RequestStage, comment: string, performerId?: number | null) =>
    apiFetch<{ data: ServiceRequestDetail }>(`/service_request/${id}`, {
      method: 'PUT',
      body: { stage, comment, ...(performerId ? { performer_id: performerId } : {}) },
    }).then((r) => r.data),
  remove: (id: number) => apiFetch(`/service_request/${id}`, { method: 'DELETE' }),
  post: (id: number, chatType: ChatType, message: string, files: File[], fromResident = false) => {
    const form = new FormData();
    form.append('chat_type', chatType);
    form.append('message', message);
    if (fromResident) form.append('from_resident', '1');
    for (const f of files) form.append('files[]', f, f.name);
    return apiFetch<{ data: ChatMessage }>(`/service_request/chat/${id}`, { method: 'POST', body: form }).then((r) => r.data);
  },
  editComment: (id: number, message: string) => apiFetch<{ data: ChatMessage }>(`/comments/${id}`, { method: 'PUT', body: { message } }).then((r) => r.data),
  deleteComment: (id: number) => apiFetch(`/comments/${id}`, { method: 'DELETE' }),
  createLink: (id: number, userId?: number) =>
    apiFetch<{ data: ChatLink & { token: string; url: string } }>(`/service_request/${id}/chat_links`, {
      method: 'POST',
      body: userId ? { user_id: userId } : {},
    }).then((r) => r.data),
  revokeLink: (id: number, linkId: number) =>
    apiFetch<{ data: ChatLink[] }>(`/service_request/${id}/chat_links/${linkId}`, { method: 'DELETE' }).then((r) => r.data),
  /** A photo goes to POST /media, a PDF to POST /media/document. */
  upload: (file: File) => {
    const form = new FormData();
    form.append('file', file, file.name);
    form.append('type', file.type === 'application/pdf' ? 'document' : 'image');
    return apiFetch<{ data: MediaFile }>(file.type === 'application/pdf' ? '/media/document' : '/media', { method: 'POST', body: form }).then((r) => r.data);
  },
};

export const notificationApi = {
  list: () => apiFetch<{ data: NotificationItem[]; unread_count: number }>('/notifications', { query: { per_page: 20 } }),
  unread: () => apiFetch<{ unread_count: number }>('/notifications/unread_count').then((r) => r.unread_count),
  read: (id: number) => apiFetch(`/notifications/${id}/read`, { method: 'POST' }),
  readAll: () => apiFetch('/notifications/read_all', { method: 'POST' }),
};

/** The staff chat by link: no bearer token, the link's token is in the path. */
export const linkChatApi = {
  async get(token: string): Promise<LinkChat> {
    const res = await fetch(`/api/staff/chat/${encodeURIComponent(token)}`, { headers: { Accept: 'application/json' } });
    if (!res.ok)
      throw Object.assign(new Error(((await res.json().catch(() => ({}))) as { message?: string }).message ?? String(res.status)), { status: res.status });
    return ((await res.json()) as { staff_chat: LinkChat }).staff_chat;
  },
  async post(token: string, message: string, photo: File | null, done: boolean): Promise<LinkChat> {
    const form = new FormData();
    form.append('token', token);
    form.append('message', message);
    if (photo) form.append('photo', photo, photo.name);
    if (done) form.append('done', '1');
    const res = await fetch(`/api/staff/chat/${encodeURIComponent(token)}`, { method: 'POST', body: form, headers: { Accept: 'application/json' } });
    const json = (await res.json().catch(() => ({}))) as { message?: string; staff_chat?: LinkChat };
    if (!res.ok) throw Object.assign(new Error(json.message ?? String(res.status)), { status: res.status });
    return json.staff_chat!;
  },
};

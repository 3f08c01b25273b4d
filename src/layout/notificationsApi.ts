import type { NotificationItem } from '../../contract/serviceRequests';
import { apiFetch } from '../dataProvider/http';

/** The header's notifications (GET /notifications and friends): the shell's own client, so the layout imports no resource's API. */
export const notificationApi = {
  list: () => apiFetch<{ data: NotificationItem[]; unread_count: number }>('/notifications', { query: { per_page: 20 } }),
  unread: () => apiFetch<{ unread_count: number }>('/notifications/unread_count').then((r) => r.unread_count),
  read: (id: number) => apiFetch(`/notifications/${id}/read`, { method: 'POST' }),
  readAll: () => apiFetch('/notifications/read_all', { method: 'POST' }),
};

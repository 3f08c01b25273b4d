import { readToken } from '../../authStorage';
import { API_URL, apiFetch } from '../../dataProvider/http';
import type { Voting, VotingForm, VotingParticipant } from '../../../contract/voting';

export const votingPath = (id: number | string) => `/Voting/${id}`;

export const fetchVoting = (id: number | string) => apiFetch<{ data: Voting }>(`/voting/${id}`).then((r) => r.data);
export const fetchVotingForm = () => apiFetch<{ form: VotingForm }>('/voting/form').then((r) => r.form);
export const fetchParticipants = (id: number | string, query: Record<string, unknown>) =>
  apiFetch<{ data: VotingParticipant[]; pagination: { total: number }; summary: Record<string, number> }>(`/voting/${id}/residents`, { query });

/** Downloads an authorised file (protocol, sheet scan) and hands it to the browser. */
export async function downloadFile(path: string, fallbackName: string, open = false) {
  const token = readToken();
  const response = await fetch(path.startsWith('/api/') ? path : `${API_URL}${path}`, { headers: token ? { Authorization: `Bearer ${token}` } : {} });
  if (!response.ok) {
    const body = (await response.json().catch(() => ({}))) as { message?: string };
    throw new Error(body.message ?? response.statusText);
  }
  const disposition = response.headers.get('content-disposition') ?? '';
  const match = /filename\*=UTF-8''([^;]+)/.exec(disposition);
  const name = match ? decodeURIComponent(match[1]) : fallbackName;
  const url = URL.createObjectURL(await response.blob());
  if (open) {
    window.open(url, '_blank', 'noopener');
  } else {
    const a = document.createElement('a');
    a.href = url;
    a.download = name;
    document.body.appendChild(a);
    a.click();
    a.remove();
  }
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

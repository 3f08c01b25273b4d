import { apiFetch } from '../../dataProvider/http';
import type { Interview, Respondent, ResponseInput } from '../../../contract/interview';

export const interviewPath = (id: number | string) => `/Interview/${id}`;

export const fetchInterview = (id: number | string) => apiFetch<{ data: Interview }>(`/interview/${id}`).then((r) => r.data);
export const fetchRespondents = (id: number | string, query: Record<string, unknown>) =>
  apiFetch<{ data: Respondent[]; pagination: { total: number }; summary: { answered: number; not_answered: number } }>(`/interview/${id}/users`, { query });
export const recordAnswers = (id: number | string, body: ResponseInput) =>
  apiFetch<{ data: Interview }>(`/interview/${id}/answers`, { method: 'POST', body }).then((r) => r.data);

/** The body PUT /interview/{id} expects, from a record, with some fields changed. */
export function interviewBody(r: Interview, changes: Record<string, unknown> = {}) {
  return {
    title: r.title,
    description: r.description,
    complex_ids: r.complex_ids,
    house_ids: r.house_ids,
    start_at: r.start_at,
    end_at: r.end_at,
    anonymous: r.anonymous,
    published: r.published,
    questions: r.questions.map((q) => ({
      title: q.title,
      kind: q.kind,
      scale_max: q.scale_max,
      options: q.kind === 'single' || q.kind === 'multiple' ? q.options.map((o) => o.title) : [],
    })),
    ...changes,
  };
}

import { readToken } from '../../authStorage';
import { API_URL, apiFetch, type Query } from '../../dataProvider/http';
import type { Bill, BillTotals } from '../../../contract/members';

/** Calls of the members area that are not plain CRUD: bills with totals, export and import. */

export interface BillsAnswer {
  data: Bill[];
  pagination: { total: number };
  totals: BillTotals;
}

export const getBills = (query: Query) => apiFetch<BillsAnswer>('/bills', { query });

export interface BillChange {
  id?: number;
  realty_id?: number;
  period?: string;
  service?: string;
  amount?: number;
  paid?: number;
  payment?: number;
}
export const updateBills = (changes: BillChange[]) => apiFetch<{ data: Bill[]; totals: BillTotals }>('/bills', { method: 'PUT', body: { bills: changes } });

/**
 * Downloads the export of the current filters, reporting the bytes received (the server streams
 * it, so the size is not known in advance), and saves it under the server's file name.
 */
export interface ImportRow {
  line: number;
  number: string;
  type: string;
  name: string;
  phone: string | null;
  email: string | null;
  role: string;
  share: string | null;
  errors: string[];
}
export interface ImportAnswer {
  committed: boolean;
  total: number;
  valid: number;
  invalid: number;
  rows: ImportRow[];
  created?: { units: number; members: number; links: number };
}

/** Uploads an import file (preview or commit) with upload progress in percent. */
export function uploadImport(form: FormData, onProgress: (percent: number) => void): Promise<ImportAnswer> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', `${API_URL}/members/import`);
    const token = readToken();
    if (token) xhr.setRequestHeader('Authorization', `Bearer ${token}`);
    xhr.setRequestHeader('Accept', 'application/json');
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable) onProgress(Math.round((e.loaded / e.total) * 100));
    };
    xhr.onload = () => {
      let body: unknown;
      try {
        body = JSON.parse(xhr.responseText);
      } catch {
        body = {};
      }
      if (xhr.status >= 200 && xhr.status < 300) resolve(body as ImportAnswer);
      else reject(Object.assign(new Error((body as { message?: string }).message ?? xhr.statusText), { status: xhr.status, body }));
    };
    xhr.onerror = () => reject(new Error('app.errors.network'));
    xhr.send(form);
  });
}

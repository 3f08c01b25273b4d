import { SELECTED_COMPLEX_KEY } from '../../authStorage';

/** The only thing persisted: `localStorage['selectedComplex']` = the selected complex's numeric id. */
export function readSavedComplex(): number | null {
  try {
    const raw = localStorage.getItem(SELECTED_COMPLEX_KEY);
    if (raw === null || raw.trim() === '') return null;
    const id = Number(raw);
    return Number.isFinite(id) ? id : null;
  } catch {
    return null;
  }
}

export function saveComplex(id: number) {
  try {
    if (localStorage.getItem(SELECTED_COMPLEX_KEY) !== String(id)) localStorage.setItem(SELECTED_COMPLEX_KEY, String(id));
  } catch {
    // Storage unavailable (private mode, quota): the selection still works for this session.
  }
}

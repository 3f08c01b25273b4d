const format = new Intl.NumberFormat('uk-UA', { maximumFractionDigits: 1 });

/** 1536 → «1,5 КБ»; Ukrainian units. */
export function formatFileSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} Б`;
  if (bytes < 1024 * 1024) return `${format.format(bytes / 1024)} КБ`;
  return `${format.format(bytes / (1024 * 1024))} МБ`;
}

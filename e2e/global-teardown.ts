import fs from 'node:fs';

export default async function globalTeardown() {
  const dir = process.env.E2E_TEMPLATE_DIR;
  if (dir && /zhk-e2e-template-/.test(dir)) fs.rmSync(dir, { recursive: true, force: true });
}

import { inArray } from 'drizzle-orm';
import { cameraEntity, type CameraInput } from '../../../contract/cameras.ts';
import { cameras, houses } from '../../db/schema.ts';
import { crudRoutes } from '../../lib/crud.ts';
import { formatAddress } from '../houses/address.ts';
import { selectHouses } from '../houses/records.ts';

/** Security cameras of houses: the generic CRUD of their declaration (contract/cameras.ts). */
export const cameraRoutes = crudRoutes(cameraEntity, {
  table: cameras,
  columns: { name: cameras.name, place: cameras.place, created_at: cameras.createdAt, house_id: cameras.houseId },
  houseColumn: cameras.houseId,
  async toRecords({ db }, rows) {
    const ids = [...new Set(rows.map((r) => r.houseId))];
    const byId = new Map((ids.length ? await selectHouses(db).where(inArray(houses.id, ids)) : []).map((h) => [h.id, h]));
    return rows.map((r) => {
      const h = byId.get(r.houseId);
      return {
        id: r.id,
        house_id: r.houseId,
        address: h ? formatAddress(h) : '',
        complex_id: h?.complexId ?? null,
        name: r.name,
        place: r.place,
        stream_url: r.streamUrl,
        snapshot_url: r.snapshotUrl,
        created_at: r.createdAt.toISOString(),
        updated_at: r.updatedAt.toISOString(),
      };
    });
  },
  values: (b: CameraInput) => ({ houseId: b.house_id, name: b.name, place: b.place, streamUrl: b.stream_url, snapshotUrl: b.snapshot_url }),
});

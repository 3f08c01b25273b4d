import { describe, expect, it } from 'vitest';
import { findRoute, hasRoute } from '../../src/routes';
import { formatArea } from '../../src/resources/realty/RealtyList';
import { cityLabel } from '../../src/resources/houses/AddressInputs';

describe('route table', () => {
  it('matches route paths case-insensitively, with params and the optional realty type', () => {
    expect(findRoute('/complex')?.path).toBe('/Complex');
    expect(findRoute('/Complex/12')?.path).toBe('/Complex/:id');
    expect(findRoute('/complex/12/HOUSES')?.path).toBe('/Complex/:id/houses');
    expect(findRoute('/Realty')?.path).toBe('/Realty/:type?');
    expect(findRoute('/realty/parking')?.path).toBe('/Realty/:type?');
    expect(findRoute('/resetpassword')?.path).toBe('/ResetPassword');
  });
  it('knows which menu paths have a screen', () => {
    expect(hasRoute('/realty/storage')).toBe(true);
    expect(hasRoute('/complex')).toBe(true);
    expect(hasRoute('/no-such-screen')).toBe(false);
  });
});

describe('formatting', () => {
  it('shows area in m² with two decimals, Ukrainian style', () => {
    expect(formatArea(54.3).replace(/\s/g, ' ')).toBe('54,30 м²');
    expect(formatArea(1234.5).replace(/\s/g, ' ')).toBe('1 234,50 м²');
    expect(formatArea(null)).toBe('');
  });
  it('prefixes settlements by category', () => {
    expect(cityLabel({ name: 'Київ', category: 'К' })).toBe('м. Київ');
    expect(cityLabel({ name: 'Березівка', category: 'С' })).toBe('с. Березівка');
    expect(cityLabel({ name: 'Ворзель', category: 'Х' })).toBe('с-ще Ворзель');
  });
});

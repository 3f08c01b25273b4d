import { expect, screenshot, signIn, test } from './fixtures';

test.describe('альтернативна редакція (dist-alt)', () => {
  test.use({ edition: 'alt' });

  test("«Будинки» — окремий пункт меню, без групи «Об'єкти нерухомості»", async ({ page }) => {
    await signIn(page);
    const nav = page.getByRole('navigation', { name: 'Головне меню' });
    const houses = nav.getByRole('link', { name: 'Будинки' });
    await expect(houses).toBeVisible();
    await expect(houses).toHaveAttribute('href', '/complex');
    await expect(nav.getByText("Об'єкти нерухомості")).toHaveCount(0);
    // A top-level item: not inside a group's collapsible list.
    await expect(nav.locator('.MuiCollapse-root').getByRole('link', { name: 'Будинки' })).toHaveCount(0);
    await screenshot(page, 'alt-edition-menu');
  });
});

test.describe('основна редакція (dist)', () => {
  test("«Будинки» — у групі «Об'єкти нерухомості»", async ({ page }) => {
    await signIn(page);
    const nav = page.getByRole('navigation', { name: 'Головне меню' });
    const group = nav.getByRole('button', { name: "Об'єкти нерухомості" });
    await expect(group).toBeVisible();
    await expect(group).toHaveAttribute('aria-expanded', 'true');
    await expect(nav.locator('.MuiCollapse-root').getByRole('link', { name: 'Будинки' })).toBeVisible();

    // The group folds and unfolds.
    await group.click();
    await expect(group).toHaveAttribute('aria-expanded', 'false');
    await expect(nav.getByRole('link', { name: 'Будинки' })).toBeHidden();
    await group.click();
    await expect(nav.getByRole('link', { name: 'Будинки' })).toBeVisible();
  });
});

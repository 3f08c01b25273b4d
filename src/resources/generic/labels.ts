import { useTranslate } from 'react-admin';
import type { EntityDeclaration, EntityTexts } from '../../../contract/entity';

/**
 * Labels and words of a declared entity: the locale's catalogue (`resources.<name>.fields.<field>`,
 * `resources.<name>.options.<field>.<value>`, `resources.<name>.<text>`, `…hints.<field>`), and
 * where it has none — Ukrainian, which takes them from the declaration itself — the declaration's.
 */
export function useEntityLabels(entity: EntityDeclaration) {
  const translate = useTranslate();
  const r = `resources.${entity.name}`;
  return {
    field: (source: string) => translate(`${r}.fields.${source}`, { _: entity.fields[source]?.label ?? source }),
    option: (source: string, value: string) => translate(`${r}.options.${source}.${value}`, { _: entity.fields[source]?.optionLabels?.[value] ?? value }),
    /** A word of the screen: its title, dialog titles, the empty list, the «added» notice. */
    text: (key: keyof EntityTexts) =>
      translate(key === 'created' ? `${r}.notifications.created` : `${r}.${key}`, { _: entity.texts?.[key] ?? plainText(entity, key) }),
    /** The hint under a field's input, if it has one. */
    hint: (source: string) => {
      const hint = entity.fields[source]?.hint;
      return hint ? translate(`${r}.hints.${source}`, { _: typeof hint === 'string' ? hint : undefined }) : undefined;
    },
  };
}

/**
 * The words of a declaration that has no `texts` of its own: plain Ukrainian built from its name
 * in exports, so that a new entity's screen never shows a catalogue key.
 */
function plainText(entity: EntityDeclaration, key: keyof EntityTexts): string {
  const words: EntityTexts = {
    name: entity.exportName,
    title: entity.exportName,
    create_title: `${entity.exportName}: новий запис`,
    edit_title: `${entity.exportName}: редагування`,
    empty: 'Записів ще немає.',
    created: 'Запис додано',
  };
  return words[key];
}

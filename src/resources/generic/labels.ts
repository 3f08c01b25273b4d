import { useTranslate } from 'react-admin';
import type { EntityDeclaration } from '../../../contract/entity';

/**
 * Labels of a declared entity's fields and options: the locale's catalogue
 * (`resources.<name>.fields.<field>`, `resources.<name>.options.<field>.<value>`), and where it
 * has none — Ukrainian, which takes them from the declaration itself — the declaration's words.
 */
export function useEntityLabels(entity: EntityDeclaration) {
  const translate = useTranslate();
  return {
    field: (source: string) => translate(`resources.${entity.name}.fields.${source}`, { _: entity.fields[source]?.label ?? source }),
    option: (source: string, value: string) =>
      translate(`resources.${entity.name}.options.${source}.${value}`, { _: entity.fields[source]?.optionLabels?.[value] ?? value }),
  };
}

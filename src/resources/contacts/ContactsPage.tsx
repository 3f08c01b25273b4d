import { useSearchParams } from 'react-router-dom';
import { Box, Tab, Tabs } from '@mui/material';
import { useTranslate } from 'react-admin';
import { contactEntity, contactGroupEntity, contactSectionEntity } from '../../../contract/contacts';
import { usePageHeader } from '../../layout/navigation';
import { EntityList } from '../generic/EntityList';

const TABS = { contacts: contactEntity, sections: contactSectionEntity, groups: contactGroupEntity } as const;
type TabName = keyof typeof TABS;

/**
 * /Contacts: the contacts, and on their own tabs the sections and groups they are arranged in;
 * each tab is the generic list of its declaration (contract/contacts.ts), filters in the address.
 */
export default function ContactsPage() {
  const translate = useTranslate();
  const [params, setParams] = useSearchParams();
  const tab = (Object.keys(TABS) as TabName[]).find((t) => t === params.get('tab')) ?? 'contacts';
  usePageHeader(translate('resources.contacts.title'));
  return (
    <Box>
      <Tabs value={tab} onChange={(_e, v) => setParams(v === 'contacts' ? {} : { tab: v })} sx={{ mb: 1 }}>
        {Object.keys(TABS).map((t) => (
          <Tab key={t} value={t} label={translate(`resources.contacts.tabs.${t}`)} />
        ))}
      </Tabs>
      <EntityList key={tab} entity={TABS[tab]} embedded pagePath="/Contacts" />
    </Box>
  );
}

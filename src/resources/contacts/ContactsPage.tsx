import { useSearchParams } from 'react-router-dom';
import { Box, Tab, Tabs } from '@mui/material';
import { useTranslate } from 'react-admin';
import { usePageHeader } from '../../layout/navigation';
import { ContactsTab } from './ContactsTab';
import { GroupsTab } from './GroupsTab';
import { SectionsTab } from './SectionsTab';

const TABS = ['contacts', 'sections', 'groups'] as const;

/** /Contacts: the contacts, and on their own tabs the sections and groups they are arranged in. */
export default function ContactsPage() {
  const translate = useTranslate();
  const [params, setParams] = useSearchParams();
  const tab = TABS.find((t) => t === params.get('tab')) ?? 'contacts';
  usePageHeader(translate('resources.contacts.title'));
  return (
    <Box>
      <Tabs value={tab} onChange={(_e, v) => setParams(v === 'contacts' ? {} : { tab: v })} sx={{ mb: 1 }}>
        {TABS.map((t) => (
          <Tab key={t} value={t} label={translate(`resources.contacts.tabs.${t}`)} />
        ))}
      </Tabs>
      {tab === 'contacts' && <ContactsTab />}
      {tab === 'sections' && <SectionsTab />}
      {tab === 'groups' && <GroupsTab />}
    </Box>
  );
}

import { useState, type ReactNode } from 'react';
import { Button, ListItemIcon, ListItemText, Menu, MenuItem } from '@mui/material';
import PersonAddAltOutlined from '@mui/icons-material/PersonAddAltOutlined';
import SwapHorizOutlined from '@mui/icons-material/SwapHorizOutlined';
import { useListContext, useNotify, useTranslate, useUpdateMany, type Identifier } from 'react-admin';
import { canMove, type RequestStage, type ServiceRequest, type ServiceRequestBulkInput, type ServiceRequestForm } from '../../../contract/serviceRequests';
import { useBulkFailure, useBulkProblems, type BulkProblem } from '../../components/bulk';
import { STAGE_ICONS } from './StageChip';

/** The stages a request can be moved to (none moves back to «Нова»). */
const TARGETS: readonly RequestStage[] = ['underReview', 'executor', 'done'];
const numbered = (r: ServiceRequest) => `№ ${r.number}`;

/**
 * Why a request the list shows cannot take the change, by the rules its own update follows
 * (contract/serviceRequests.ts: STAGE_TRANSITIONS; a performer before the executor's stage), or
 * undefined. The API checks again: what it refuses is told when the answer comes.
 */
export function bulkProblem(r: ServiceRequest, change: ServiceRequestBulkInput): Omit<BulkProblem, 'id'> | undefined {
  const to = change.stage;
  if (to === undefined || to === r.stage) return undefined;
  if (!canMove(r.stage, to))
    return {
      message: 'resources.service_requests.bulk.cannot_move',
      messageArgs: { from: `resources.service_requests.stages.${r.stage}`, to: `resources.service_requests.stages.${to}` },
    };
  const performer = change.performer_id !== undefined ? change.performer_id : r.performer_id;
  if (to === 'executor' && performer === null) return { message: 'resources.service_requests.bulk.needs_performer' };
  return undefined;
}

/**
 * One bulk change of the selected requests, undoable: the requests the list knows cannot take it
 * are told at once and left out, the others show the change at once, «Скасувати» takes it back
 * before anything is sent, and what the API still refuses is told when its answer comes.
 */
function useRequestChange() {
  const translate = useTranslate();
  const notify = useNotify();
  const { selectedIds, data, onUnselectItems } = useListContext<ServiceRequest>();
  const [updateMany] = useUpdateMany<ServiceRequest>();
  const onError = useBulkFailure(numbered);
  const tell = useBulkProblems(numbered);
  return (change: ServiceRequestBulkInput, shown: Partial<ServiceRequest>, successMessage: string) => {
    const problems: BulkProblem[] = [];
    const ids: Identifier[] = [];
    for (const id of selectedIds) {
      // A request selected on another page is not in `data`: the API decides for it.
      const row = data?.find((r) => r.id === id);
      const problem = row && bulkProblem(row, change);
      if (problem) problems.push({ id, ...problem, messageArgs: problem.messageArgs && translateArgs(problem.messageArgs, translate) });
      else if (!row || change.performer_id !== undefined || row.stage !== change.stage) ids.push(id);
    }
    if (ids.length)
      void updateMany(
        'service-requests',
        { ids, data: { ...change, ...shown } },
        {
          mutationMode: 'undoable',
          onSuccess: () => {
            notify(successMessage, { type: 'info', undoable: true, messageArgs: { smart_count: ids.length } });
            onUnselectItems();
          },
          onError,
        },
      );
    if (problems.length) tell(problems, selectedIds.length, 'warning');
    else if (ids.length === 0) {
      notify('resources.service_requests.bulk.nothing', { type: 'info' });
      onUnselectItems();
    }
  };
}

const translateArgs = (args: Record<string, unknown>, translate: (key: string) => string) =>
  Object.fromEntries(Object.entries(args).map(([k, v]) => [k, typeof v === 'string' ? translate(v) : v]));

function MenuButton({ label, icon, children }: { label: string; icon: ReactNode; children: (close: () => void) => ReactNode }) {
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  return (
    <>
      <Button size="small" startIcon={icon} aria-haspopup="menu" onClick={(e) => setAnchor(e.currentTarget)}>
        {label}
      </Button>
      <Menu anchorEl={anchor} open={Boolean(anchor)} onClose={() => setAnchor(null)}>
        {children(() => setAnchor(null))}
      </Menu>
    </>
  );
}

/** The bulk actions of the requests list: a performer for the selected requests, and their stage. */
export function RequestBulkActions({ form }: { form: ServiceRequestForm | null }) {
  const translate = useTranslate();
  const apply = useRequestChange();
  return (
    <>
      <MenuButton label={translate('resources.service_requests.bulk.performer')} icon={<PersonAddAltOutlined />}>
        {(close) =>
          (form?.performer ?? []).map((s) => (
            <MenuItem
              key={s.id}
              onClick={() => {
                close();
                apply({ performer_id: s.id }, { performer: { id: s.id, name: s.name } }, 'resources.service_requests.bulk.assigned');
              }}
            >
              {s.name}
            </MenuItem>
          ))
        }
      </MenuButton>
      <MenuButton label={translate('resources.service_requests.bulk.stage')} icon={<SwapHorizOutlined />}>
        {(close) =>
          TARGETS.map((stage) => (
            <MenuItem
              key={stage}
              onClick={() => {
                close();
                apply({ stage }, {}, 'resources.service_requests.bulk.moved');
              }}
            >
              <ListItemIcon>{STAGE_ICONS[stage]}</ListItemIcon>
              <ListItemText>{translate(`resources.service_requests.stages.${stage}`)}</ListItemText>
            </MenuItem>
          ))
        }
      </MenuButton>
    </>
  );
}

import { useEffect, useId, useRef, useState } from 'react';
import { Box, Button, GlobalStyles, IconButton, Paper, Stack, Typography } from '@mui/material';
import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import ArrowForwardIcon from '@mui/icons-material/ArrowForward';
import CloseIcon from '@mui/icons-material/Close';
import { EVENTS, Joyride, STATUS, type EventData, type TooltipRenderProps } from 'react-joyride';
import { useTranslate } from 'react-admin';
import { useIsFetching } from '@tanstack/react-query';
import { markTourDone, shownElement, tourDone, useSettledSteps, type SettleOptions, type TourStep } from './steps';

export type { TourStep } from './steps';
export { tourDone, tourStorageKey } from './steps';

/**
 * Below MUI's app bar (1100), drawer (1200), menus and dialogs (1300): the header, the sidebar
 * (a drawer on phones) and whatever they open stay above the tour and usable while it runs.
 */
export const TOUR_Z_INDEX = 1050;

/** The fixed header's height (px) and a margin: the tooltip is never placed under the header. */
const HEADER_CLEARANCE = 56;

/**
 * The tooltip stays whole on the screen, below the header. A target taller than the screen (the
 * list's table) leaves room neither above nor below it: the tooltip then moves over the target's
 * top instead of going off the screen or under the header with its title and buttons.
 */
const TOOLTIP_IN_VIEW = {
  flipOptions: { padding: { top: HEADER_CLEARANCE, bottom: 20, left: 20, right: 20 } },
  shiftOptions: { crossAxis: true, padding: { top: HEADER_CLEARANCE, bottom: 10, left: 10, right: 10 } },
};

function TourTooltip({ index, size, step, isLastStep, backProps, primaryProps, closeProps, understood }: TooltipRenderProps & { understood: boolean }) {
  const translate = useTranslate();
  const titleId = useId();
  const primary = useRef<HTMLButtonElement>(null);
  // Each step takes the keyboard focus to its main button (the page stays usable: no focus trap).
  useEffect(() => {
    primary.current?.focus({ preventScroll: true });
  }, [index]);
  return (
    <Paper
      role="dialog"
      aria-modal={false}
      aria-labelledby={step.title ? titleId : undefined}
      elevation={8}
      sx={{ width: 360, maxWidth: 'calc(100vw - 32px)', p: 2 }}
      data-testid="tour"
    >
      <Stack direction="row" sx={{ alignItems: 'center', mb: 1 }}>
        <Typography variant="caption" color="text.secondary" data-testid="tour-progress" sx={{ flex: 1 }}>
          {index + 1}/{size}
        </Typography>
        <IconButton size="small" onClick={closeProps.onClick} aria-label={translate('app.tour.close')}>
          <CloseIcon fontSize="small" />
        </IconButton>
      </Stack>
      {step.title && (
        <Typography id={titleId} variant="subtitle1" component="h2" sx={{ fontWeight: 600, mb: 0.5 }}>
          {step.title}
        </Typography>
      )}
      <Box sx={{ typography: 'body2', mb: 2 }}>{step.content}</Box>
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
        <IconButton size="small" onClick={backProps.onClick} disabled={index === 0} aria-label={translate('app.tour.back')}>
          <ArrowBackIcon fontSize="small" />
        </IconButton>
        <IconButton size="small" onClick={primaryProps.onClick} disabled={isLastStep} aria-label={translate('app.tour.forward')}>
          <ArrowForwardIcon fontSize="small" />
        </IconButton>
        <Box sx={{ flex: 1 }} />
        {understood && !isLastStep && (
          <Button size="small" onClick={closeProps.onClick}>
            {translate('app.tour.understood')}
          </Button>
        )}
        <Button ref={primary} size="small" variant="contained" onClick={primaryProps.onClick}>
          {translate(isLastStep ? 'app.tour.finish' : 'app.tour.next')}
        </Button>
      </Stack>
    </Paper>
  );
}

/**
 * A guided tour of a screen, shown once per `tourKey`: numbered steps «n/total», back and forward
 * arrows, «Далі» and «Завершити» on the last step, optionally «Зрозуміло» (ends the tour at
 * once). It starts once the page has settled and counts only the steps whose target is on the
 * page then (steps.ts), so the numbers run 1/N…N/N. The overlay dims the page but takes no
 * click: the menu, the header and the page stay usable. Esc closes the tour; closing,
 * finishing, «Зрозуміло» or leaving the screen mark it as seen in localStorage (the help menu
 * shows it again).
 */
export function Tour({ tourKey, steps, understood = false, settle }: { tourKey: string; steps: TourStep[]; understood?: boolean; settle?: SettleOptions }) {
  const translate = useTranslate();
  const [run, setRun] = useState(() => !tourDone(tourKey));
  const loading = useIsFetching() > 0;
  const present = useSettledSteps(run ? steps : null, loading, settle);
  const displayed = useRef(false);

  // Leaving the screen during the tour (the menu stays usable) counts as having seen it.
  useEffect(
    () => () => {
      if (displayed.current) markTourDone(tourKey);
    },
    [tourKey],
  );

  if (!run || !present || present.length === 0) return null;

  const onEvent = (data: EventData) => {
    if (data.type === EVENTS.TOOLTIP) displayed.current = true;
    const ended = data.status === STATUS.FINISHED || data.status === STATUS.SKIPPED || data.action === 'close';
    if (ended) {
      markTourDone(tourKey);
      displayed.current = false;
      setRun(false);
    }
  };

  return (
    <>
      <GlobalStyles
        styles={(theme) => ({
          // The overlay dims but takes no click.
          '.react-joyride__overlay path': { pointerEvents: 'none !important' },
          // The header and the docked sidebar stand above the overlay, undimmed: react-admin's layout
          // root would otherwise hold them in a stacking context under it.
          '.RaLayout-root, .layout': { zIndex: 'auto !important' },
          '.RaSidebar-fixed': { zIndex: TOUR_Z_INDEX + 1, backgroundColor: theme.palette.background.default },
        })}
      />
      <Joyride
        run
        continuous
        steps={present.map((s) => ({
          // A target that left the page after the start: the step points at the page instead of vanishing.
          target: () => shownElement(s.target) ?? document.querySelector<HTMLElement>('main') ?? document.body,
          title: s.title ? translate(s.title) : undefined,
          content: translate(s.content),
          skipBeacon: true,
          floatingOptions: TOOLTIP_IN_VIEW,
        }))}
        onEvent={onEvent}
        tooltipComponent={(props: TooltipRenderProps) => <TourTooltip {...props} understood={understood} />}
        options={{
          overlayClickAction: false,
          dismissKeyAction: 'close',
          closeButtonAction: 'close',
          disableFocusTrap: true,
          // Scrolled into view below the fixed header (48 px), not under it.
          scrollOffset: 72,
          zIndex: TOUR_Z_INDEX,
        }}
      />
    </>
  );
}

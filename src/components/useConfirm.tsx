import { useCallback, useRef, useState, type ReactNode } from 'react';
import { Confirm, useTranslate } from 'react-admin';

interface Ask {
  title: string;
  content?: ReactNode;
  confirm?: string;
}

/**
 * A question in the product's own dialog instead of the browser's `window.confirm`: `ask()`
 * resolves to whether the user agreed; render `dialog` once in the component.
 */
export function useConfirm(): [(question: Ask) => Promise<boolean>, ReactNode] {
  const translate = useTranslate();
  const [question, setQuestion] = useState<Ask | null>(null);
  const resolver = useRef<(yes: boolean) => void>(() => {});
  const ask = useCallback((q: Ask) => {
    setQuestion(q);
    return new Promise<boolean>((resolve) => {
      resolver.current = resolve;
    });
  }, []);
  const answer = (yes: boolean) => {
    setQuestion(null);
    resolver.current(yes);
  };
  const dialog = (
    <Confirm
      isOpen={question !== null}
      title={question?.title ?? ''}
      content={question?.content ?? ''}
      confirm={question?.confirm ?? translate('app.actions.confirm')}
      cancel={translate('app.actions.cancel')}
      confirmColor="warning"
      onClose={() => answer(false)}
      onConfirm={() => answer(true)}
    />
  );
  return [ask, dialog];
}

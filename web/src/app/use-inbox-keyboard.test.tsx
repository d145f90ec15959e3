// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render } from '@testing-library/react';
import { neighbourOf, useInboxKeyboard } from './use-inbox-keyboard';

function Harness(props: Parameters<typeof useInboxKeyboard>[0]) {
  useInboxKeyboard(props);
  return <input aria-label="field" />;
}

const setup = (selectedId: string | null) => {
  const calls = { open: vi.fn(), remove: vi.fn(), focusSearch: vi.fn() };
  const view = render(<Harness ids={['a', 'b', 'c']} selectedId={selectedId} {...calls} />);
  return { ...calls, view };
};

describe('useInboxKeyboard', () => {
  afterEach(cleanup);

  it('j opens the first email, then the next (older) one; k goes back', () => {
    const none = setup(null);
    fireEvent.keyDown(window, { key: 'j' });
    expect(none.open).toHaveBeenLastCalledWith('a');
    cleanup();
    const middle = setup('b');
    fireEvent.keyDown(window, { key: 'j' });
    expect(middle.open).toHaveBeenLastCalledWith('c');
    fireEvent.keyDown(window, { key: 'k' });
    expect(middle.open).toHaveBeenLastCalledWith('a');
  });

  it('stops at the ends of the page', () => {
    const last = setup('c');
    fireEvent.keyDown(window, { key: 'j' });
    expect(last.open).not.toHaveBeenCalled();
  });

  it('/ focuses the search and Delete deletes the open email', () => {
    const keys = setup('b');
    fireEvent.keyDown(window, { key: '/' });
    expect(keys.focusSearch).toHaveBeenCalledOnce();
    fireEvent.keyDown(window, { key: 'Delete' });
    expect(keys.remove).toHaveBeenCalledWith('b');
  });

  it('leaves keys alone while typing in a field or with a modifier', () => {
    const keys = setup('b');
    fireEvent.keyDown(keys.view.getByLabelText('field'), { key: 'j' });
    fireEvent.keyDown(window, { key: 'j', ctrlKey: true });
    fireEvent.keyDown(keys.view.getByLabelText('field'), { key: 'Delete' });
    expect(keys.open).not.toHaveBeenCalled();
    expect(keys.remove).not.toHaveBeenCalled();
  });
});

describe('neighbourOf', () => {
  it('after a delete shows the next older email, else the newer one', () => {
    expect(neighbourOf(['a', 'b', 'c'], 'b')).toBe('c');
    expect(neighbourOf(['a', 'b', 'c'], 'c')).toBe('b');
    expect(neighbourOf(['a'], 'a')).toBeNull();
    expect(neighbourOf(['a'], 'x')).toBeNull();
  });
});

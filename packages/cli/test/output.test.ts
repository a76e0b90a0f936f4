import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { describeWriteError, guardOutput } from '../src/output.ts';

function errno(code: string, message: string): NodeJS.ErrnoException {
  return Object.assign(new Error(message), { code });
}

describe('guardOutput: the shared output layer of every command', () => {
  it('a closed reader (EPIPE) ends the run with exit 0 and nothing on stderr', () => {
    const stdout = new PassThrough();
    const stderr = new PassThrough();
    const exits: number[] = [];
    guardOutput(stdout, stderr, (c) => exits.push(c));
    stdout.emit('error', errno('EPIPE', 'write EPIPE'));
    expect(exits).toEqual([0]);
    expect(stderr.read()).toBeNull();
  });
  it('any other write error is one line on stderr and exit 2, once', () => {
    const stdout = new PassThrough();
    const stderr = new PassThrough();
    const exits: number[] = [];
    guardOutput(stdout, stderr, (c) => exits.push(c));
    stdout.emit('error', errno('ENOSPC', 'ENOSPC: no space left on device, write'));
    stdout.emit('error', errno('ERR_STREAM_DESTROYED', 'Cannot call write after a stream was destroyed'));
    expect(exits).toEqual([2]);
    expect(String(stderr.read())).toBe('verdict: cannot write to standard output: no space left on device\n');
  });
  it('describes errors in words, without the code and the syscall', () => {
    expect(describeWriteError(errno('EIO', 'EIO: i/o error, write'))).toBe('i/o error');
    expect(describeWriteError(errno('ECONNRESET', 'write ECONNRESET'))).toBe('ECONNRESET');
  });
  it('an error on stderr itself is not an unhandled event', () => {
    const stdout = new PassThrough();
    const stderr = new PassThrough();
    guardOutput(stdout, stderr, () => {});
    expect(() => stderr.emit('error', errno('EPIPE', 'write EPIPE'))).not.toThrow();
  });
});

import { parse } from 'csv-parse/sync';
import { csvRecord, neutraliseCsvText, restoreCsvText } from './csv';

describe('neutraliseCsvText', () => {
  it.each([
    ['=1+1', "'=1+1"],
    ['+1+1', "'+1+1"],
    ['-1+1', "'-1+1"],
    ['@SUM(A1)', "'@SUM(A1)"],
    ['|calc', "'|calc"],
    ["cmd|' /C calc'!A0", "cmd|' /C calc'!A0"],
    ['\uff1d1+1', "'\uff1d1+1"], // full-width equals
    ['\uff0b1', "'\uff0b1"], // full-width plus
    ['\uff201', "'\uff201"], // full-width commercial at
    ['\u200b=1+1', "'\u200b=1+1"], // zero-width space (Cf)
    ['\ufeff=1+1', "'\ufeff=1+1"], // byte-order mark (Cf)
    ['\u200e=1+1', "'\u200e=1+1"], // left-to-right mark (Cf)
    ['  =1+1', "'  =1+1"],
    ['\u00a0=1+1', "'\u00a0=1+1"],
    ['"=1+1', '\'"=1+1'],
    ["'=1+1", "''=1+1"],
    ['\uff02=1+1', "'\uff02=1+1"], // full-width quote
    ['+15551234567', "'+15551234567"], // + and digits only: still a formula to a spreadsheet
    ['-', "'-"],
    ['-5', "'-5"],
    ['\tx', "'\tx"],
    ['\rx', "'\rx"],
    ['\nx', "'\nx"],
  ])('neutralises %j', (value, expected) => {
    expect(neutraliseCsvText(value)).toBe(expected);
  });

  it.each([
    '',
    'plain text',
    'Ada Lovelace',
    'ada@example.com',
    '42',
    '3.14',
    '2026-11-27 10:00:00',
    'https://example.com/?a=1',
    'a=b',
    'x-y',
    '"quoted"',
    "'apostrophe",
    ' ',
    '\u200b',
  ])('leaves %j unchanged', (value) => {
    expect(neutraliseCsvText(value)).toBe(value);
  });
});

describe('restoreCsvText', () => {
  it.each([
    '=1+1',
    '-alias',
    "'=1+1",
    '\uff1d1+1',
    '\u200b=1+1',
    '+15551234567',
    '\tx',
    "'apostrophe",
    "''",
    'plain text',
    '',
  ])('reads %j back as it was before neutraliseCsvText', (value) => {
    expect(restoreCsvText(neutraliseCsvText(value))).toBe(value);
  });

  it('keeps an apostrophe neutraliseCsvText did not add', () => {
    expect(["'apostrophe", "'", "'x=1"].map(restoreCsvText)).toEqual(["'apostrophe", "'", "'x=1"]);
  });
});

describe('csvRecord', () => {
  it('writes numbers as digits, null as empty, and neutralised text quoted when it must be', () => {
    const line = csvRecord([7, -3, null, '=1+1', 'a,b', '"=1', 'line\nbreak', '+1']);
    expect(line).toBe(`7,-3,,'=1+1,"a,b","'""=1","line\nbreak",'+1\r\n`);
    expect(parse(line)).toEqual([['7', '-3', '', "'=1+1", 'a,b', `'"=1`, 'line\nbreak', "'+1"]]);
  });
});

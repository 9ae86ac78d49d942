/**
 * The 14 message resources (fields messages.md / snapshots.md; permissions contract.md "Tenancy and access"; value sets, keys,
 * main time fields and list formats docs/messages.md). Addresses and phone numbers are JSON arrays.
 */
import { HOUR, InvalidCase, newest, notOneOf, ResourceGroup, ResourceSpec, SampleRecord, T0, tooLong } from '../resource-table';
import { declared, DeclaredFacts } from './declared';

/** Records without a main time field are newest first by createdTime, which the server sets. */
const createdNewest = { field: 'createdTime', order: 'descend', value: () => undefined } as const;

/** A number per label (distinct labels, distinct values), for updating numeric fields. */
const hash = (label: string): number => [...label].reduce((sum, ch, i) => (sum * 31 + ch.charCodeAt(0) * (i + 1)) % 1_000_000, 7);
/** The seed's digits (s012 → 12; 0 without digits), so sort values differ per seed. */
const seedNumber = (s: string): number => Number(s.replace(/\D/g, '')) % 100_000;

/** The contract fixes the duplicate texts of the configuration group only. */
const common = (segment: string): Pick<ResourceSpec, keyof DeclaredFacts | 'duplicateText'> => ({
  ...declared(segment),
  duplicateText: null,
});

const wrongType = (field: string, value: unknown, what: string): InvalidCase => ({
  why: `${field} ${what}`,
  patch: { [field]: value },
  field,
  status: 1003,
});
const badId = (field: string): InvalidCase[] => [
  { why: `${field} with a dash`, patch: { [field]: 'tpl-1' }, field },
  { why: `${field} with a slash`, patch: { [field]: 'tpl/1' }, field },
];
const enabledCases: InvalidCase[] = [wrongType('enabled', 'yes', 'as a string'), wrongType('enabled', 1, 'as a number')];
const addresses = (n: number) => Array.from({ length: n }, (_, i) => `r${i}@example.com`);

/** Template → configuration links: the two ids and sort (messages.md / snapshots.md), one live link per pair. */
const link = (segment: string, templateField: string, configField: string): ResourceSpec => ({
  ...common(segment),
  sample: (s) => ({ [templateField]: `tpl${s}`, [configField]: `cfg${s}`, sort: seedNumber(s) }),
  requiredFields: [templateField, configField],
  noMatch: 'NoSuchTemplate0',
  sortField: 'sort',
  defaultSort: createdNewest,
  updateField: 'sort',
  updateValue: hash,
  updateFieldNotNull: true,
  typedField: 'sort',
  maxLength: { field: configField, max: 32 },
  invalid: [
    ...badId(templateField),
    ...badId(configField),
    { why: 'sort fractional', patch: { sort: 1.5 }, field: 'sort', status: 1003 },
    wrongType('sort', '1', 'as a string'),
    { why: 'sort above the int column', patch: { sort: 2147483648 }, field: 'sort' },
    wrongType(configField, 12, 'a number'),
  ],
  validEdges: [{ why: 'sort 0 and negative sort', patch: { sort: -3 } }],
});

/** Templates: code unique per tenant, name, enabled, remark. */
const template = (segment: string, sample: (s: string) => SampleRecord, extra: Partial<ResourceSpec>): ResourceSpec => ({
  ...common(segment),
  sample,
  requiredFields: [],
  sortField: 'code',
  defaultSort: createdNewest,
  updateField: 'remark',
  typedField: 'enabled',
  maxLength: { field: 'code', max: 64 },
  invalid: [],
  ...extra,
});

export const MESSAGE_RESOURCES: ResourceSpec[] = [
  {
    ...common('email'),
    sample: (s) => ({
      emailConfigId: `ecfg${s}`,
      emailTemplateId: `etpl${s}`,
      fromAddress: `noreply-${s}@example.com`,
      toAddresses: [`alice-${s}@example.com`, 'bob@example.org'],
      ccAddresses: [`carol-${s}@example.com`],
      bccAddresses: null,
      subject: `Subject ${s}`,
      content: `<p>Body ${s}</p>`,
      status: 'SENT',
      sendTime: T0,
      errorMessage: `note ${s}`,
      retryCount: 0,
      businessType: 'ORDER',
      businessId: `SO-${s}`,
    }),
    // status (PENDING) and sendTime (null until sent) have defaults on create
    requiredFields: ['fromAddress', 'toAddresses', 'subject', 'content'],
    filterAlternatives: { status: 'FAILED' },
    sortField: 'subject',
    defaultSort: { field: 'sendTime', order: 'descend', value: newest },
    updateField: 'errorMessage',
    typedField: 'retryCount', // sendTime may be null (unsent); retryCount is never null
    maxLength: { field: 'subject', max: 255 },
    invalid: [
      { why: 'fromAddress without @', patch: { fromAddress: 'noreply.example.com' }, field: 'fromAddress' },
      { why: 'fromAddress with a display name', patch: { fromAddress: 'Alice <alice@example.com>' }, field: 'fromAddress' },
      {
        why: 'toAddresses with an invalid address',
        patch: { toAddresses: ['alice@example.com', 'bob at example.com'] },
        field: 'toAddresses',
      },
      { why: 'toAddresses empty', patch: { toAddresses: [] }, field: 'toAddresses' },
      { why: 'toAddresses with 51 addresses', patch: { toAddresses: addresses(51) }, field: 'toAddresses' },
      wrongType('toAddresses', 'alice@example.com', 'as a string, not a list'),
      { why: 'ccAddresses with two addresses in one item', patch: { ccAddresses: ['a@example.com,b@example.com'] }, field: 'ccAddresses' },
      { why: 'ccAddresses with a blank item', patch: { ccAddresses: [' '] }, field: 'ccAddresses' },
      wrongType('bccAddresses', [5], 'with a number'),
      notOneOf('status', 'DELIVERED'),
      notOneOf('status', 'sent'),
      { why: 'retryCount negative', patch: { retryCount: -1 }, field: 'retryCount' },
      { why: 'retryCount fractional', patch: { retryCount: 1.5 }, field: 'retryCount', status: 1003 },
      { why: 'sendTime negative', patch: { sendTime: -1 }, field: 'sendTime' },
      ...badId('emailConfigId'),
      { why: 'businessType with a space', patch: { businessType: 'SALES ORDER' }, field: 'businessType' },
      tooLong('content', 16000),
      tooLong('errorMessage', 2000),
    ],
    validEdges: [
      {
        why: '50 recipients, no copies, retryCount 0, PENDING',
        patch: { toAddresses: addresses(50), ccAddresses: [], bccAddresses: null, retryCount: 0, status: 'PENDING', errorMessage: null },
      },
      {
        why: 'an address of the full 254 characters; a bcc on a multi-label domain',
        patch: {
          fromAddress: `${'a'.repeat(64)}@${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(57)}.com`,
          bccAddresses: ['audit@mail.example.co.uk'],
        },
      },
    ],
  },
  {
    ...common('email-config'),
    sample: (s) => ({
      name: `Mail ${s}`,
      host: `smtp-${s}.example.com`,
      port: 465,
      secure: true,
      username: `mailer-${s}`,
      password: `pw-${s}-Zq9!secret`,
      allowCleartextLogin: true,
      fromAddress: `noreply-${s}@example.com`,
      fromName: `Back office ${s}`,
      allowAnyFromAddress: false,
      enabled: true,
      remark: `remark ${s}`,
    }),
    requiredFields: ['name', 'host', 'port', 'fromAddress', 'enabled'],
    sortField: 'name',
    defaultSort: createdNewest,
    updateField: 'remark',
    typedField: 'port',
    maxLength: { field: 'name', max: 255 },
    invalid: [
      { why: 'port 0', patch: { port: 0 }, field: 'port' },
      { why: 'port 65536', patch: { port: 65536 }, field: 'port' },
      { why: 'port negative', patch: { port: -25 }, field: 'port' },
      wrongType('port', '25', 'as a string'),
      { why: 'port fractional', patch: { port: 25.5 }, field: 'port', status: 1003 },
      { why: 'host with a space', patch: { host: 'smtp example.com' }, field: 'host' },
      { why: 'host as a URL', patch: { host: 'smtp://smtp.example.com' }, field: 'host' },
      { why: 'fromAddress not an address', patch: { fromAddress: 'noreply' }, field: 'fromAddress' },
      wrongType('secure', 'true', 'as a string'),
      wrongType('allowAnyFromAddress', 'true', 'as a string'),
      wrongType('allowCleartextLogin', 'yes', 'as a string'),
      // delivery destinations: public addresses only (no DELIVERY_ALLOWED_HOSTS in these apps)
      { why: 'host on a loopback address', patch: { host: '127.0.0.1' }, field: 'host' },
      { why: 'host on a private address', patch: { host: '192.168.1.10' }, field: 'host' },
      ...enabledCases,
      tooLong('password', 255),
      tooLong('host', 255),
    ],
    validEdges: [
      { why: 'port 1, an IPv4 host, no login', patch: { port: 1, host: '9.9.9.9', username: null, secure: false } },
      { why: 'port 65535 and an IPv6 host', patch: { port: 65535, host: '2620:fe::fe' } },
      { why: 'a single-label host name (intranet)', patch: { host: 'mailrelay' } },
    ],
  },
  template(
    'email-template',
    (s) => ({
      code: `welcome-${s}`,
      name: `Welcome ${s}`,
      subject: `Welcome ${s}`,
      content: `<p>Hello {{name}} ${s}</p>`,
      contentType: 'html',
      language: 'zh-CN',
      enabled: true,
      remark: `remark ${s}`,
    }),
    {
      requiredFields: ['code', 'name', 'subject', 'content', 'contentType', 'enabled'],
      filterAlternatives: { contentType: 'text', language: 'en-GB' },
      invalid: [
        { why: 'code with a space', patch: { code: 'wel come' }, field: 'code' },
        notOneOf('contentType', 'markdown'),
        notOneOf('contentType', 'HTML'),
        { why: 'language not a BCP 47 tag', patch: { language: 'english' }, field: 'language' },
        { why: 'language with an underscore', patch: { language: 'zh_CN' }, field: 'language' },
        tooLong('subject', 255),
        tooLong('content', 16000),
        ...enabledCases,
      ],
      validEdges: [
        { why: 'language with a script (zh-Hans-CN)', patch: { language: 'zh-Hans-CN' } },
        { why: 'plain text without a language', patch: { contentType: 'text', language: null } },
      ],
    },
  ),
  link('email-template-email-config', 'emailTemplateId', 'emailConfigId'),
  {
    ...common('notification'),
    sample: (s) => ({
      notificationTemplateId: `ntpl${s}`,
      notificationConfigId: `ncfg${s}`,
      title: `Title ${s}`,
      content: `Content ${s}`,
      level: 'WARNING',
      targetType: 'USER',
      targetRole: 'auditor',
      status: 'PUBLISHED',
      publishTime: T0,
      businessType: 'MAINTENANCE',
      businessId: `MT-${s}`,
    }),
    // level INFO, targetType ALL, status DRAFT and publishTime null are the defaults on create
    requiredFields: ['title', 'content'],
    filterAlternatives: { level: 'ERROR', targetType: 'ALL', status: 'DRAFT' },
    sortField: 'title',
    defaultSort: { field: 'publishTime', order: 'descend', value: newest },
    updateField: 'businessId',
    // no notification field is both non-string and non-null any more: publishTime (null while a draft) still
    // serves the wrong-type case
    typedField: 'publishTime',
    maxLength: { field: 'title', max: 255 },
    invalid: [
      notOneOf('level', 'DEBUG'),
      notOneOf('level', 'info'),
      notOneOf('targetType', 'EVERYONE'),
      notOneOf('status', 'SENT'),
      { why: 'publishTime negative', patch: { publishTime: -1 }, field: 'publishTime' },
      wrongType('publishTime', '2026-01-01', 'as a date string'),
      ...badId('notificationTemplateId'),
      tooLong('content', 16000),
    ],
    validEdges: [
      {
        why: 'a revoked notification for everyone without template or configuration',
        patch: { status: 'REVOKED', targetType: 'ALL', notificationTemplateId: null, notificationConfigId: null },
      },
    ],
  },
  {
    ...common('notification-config'),
    sample: (s) => ({ name: `Inbox ${s}`, channel: 'IN_APP', enabled: true, remark: `remark ${s}` }),
    requiredFields: ['name', 'channel', 'enabled'],
    filterAlternatives: { channel: 'SMS' },
    sortField: 'name',
    defaultSort: createdNewest,
    updateField: 'remark',
    typedField: 'enabled',
    maxLength: { field: 'name', max: 255 },
    invalid: [notOneOf('channel', 'FAX'), notOneOf('channel', 'in_app'), ...enabledCases, tooLong('remark', 500)],
    validEdges: [{ why: 'a disabled push channel', patch: { channel: 'PUSH', enabled: false } }],
  },
  template(
    'notification-template',
    (s) => ({
      code: `maint-${s}`,
      name: `Maintenance ${s}`,
      title: `Maintenance ${s}`,
      content: `Down from {{start}} ${s}`,
      level: 'INFO',
      enabled: true,
      remark: `remark ${s}`,
    }),
    {
      requiredFields: ['code', 'name', 'title', 'content', 'level', 'enabled'],
      filterAlternatives: { level: 'ERROR' },
      invalid: [
        notOneOf('level', 'CRITICAL'),
        { why: 'code with a slash', patch: { code: 'maint/1' }, field: 'code' },
        tooLong('title', 255),
        ...enabledCases,
      ],
    },
  ),
  link('notification-template-notification-config', 'notificationTemplateId', 'notificationConfigId'),
  {
    ...common('notification-user'),
    sample: (s) => ({ notificationId: `ntf${s}`, username: `user-${s}`, read: true, readTime: T0, archived: true }),
    requiredFields: ['notificationId', 'username'],
    sortField: 'username',
    defaultSort: { field: 'readTime', order: 'descend', value: newest },
    updateField: 'readTime',
    updateValue: (label) => T0 + hash(label),
    typedField: 'read',
    maxLength: { field: 'username', max: 128 },
    invalid: [
      { why: 'readTime negative', patch: { readTime: -1 }, field: 'readTime' },
      wrongType('readTime', '2026-01-01', 'as a date string'),
      wrongType('read', 'yes', 'as a string'),
      ...badId('notificationId'),
    ],
    validEdges: [{ why: 'unread without readTime', patch: { read: false, readTime: null } }],
  },
  {
    ...common('sms'),
    sample: (s) => ({
      smsConfigId: `scfg${s}`,
      smsTemplateId: `stpl${s}`,
      phoneNumbers: ['+8613800138000', '+4915112345678'],
      content: `Your code is ${s}`,
      params: `{"code":"${s}"}`,
      status: 'SENT',
      sendTime: T0,
      errorMessage: `note ${s}`,
      providerMessageId: `PM-${s}`,
      retryCount: 1,
      businessType: 'LOGIN',
      businessId: `LG-${s}`,
    }),
    // status (PENDING) and sendTime (null until sent) have defaults on create
    requiredFields: ['phoneNumbers', 'content'],
    filterAlternatives: { status: 'PENDING' },
    sortField: 'retryCount',
    defaultSort: { field: 'sendTime', order: 'descend', value: newest },
    updateField: 'errorMessage',
    typedField: 'retryCount', // sendTime may be null (unsent); retryCount is never null
    maxLength: { field: 'content', max: 1000 },
    invalid: [
      { why: 'phone number without +', patch: { phoneNumbers: ['8613800138000'] }, field: 'phoneNumbers' },
      { why: 'phone number starting with +0', patch: { phoneNumbers: ['+0123456789'] }, field: 'phoneNumbers' },
      { why: 'phone number with spaces', patch: { phoneNumbers: ['+1 555 0100'] }, field: 'phoneNumbers' },
      { why: 'phone number of 16 digits', patch: { phoneNumbers: ['+1234567890123456'] }, field: 'phoneNumbers' },
      { why: 'phone number with letters', patch: { phoneNumbers: ['+1555CALLNOW'] }, field: 'phoneNumbers' },
      { why: 'phoneNumbers empty', patch: { phoneNumbers: [] }, field: 'phoneNumbers' },
      {
        why: 'phoneNumbers with 101 numbers',
        patch: { phoneNumbers: Array.from({ length: 101 }, (_, i) => `+1555${String(i).padStart(7, '0')}`) },
        field: 'phoneNumbers',
      },
      wrongType('phoneNumbers', '+8613800138000', 'as a string, not a list'),
      wrongType('phoneNumbers', [8613800138000], 'with a number'),
      { why: 'params not JSON', patch: { params: 'code=123456' }, field: 'params' },
      { why: 'params a JSON number', patch: { params: '42' }, field: 'params' },
      notOneOf('status', 'DELIVERED'),
      { why: 'retryCount negative', patch: { retryCount: -2 }, field: 'retryCount' },
      { why: 'sendTime negative', patch: { sendTime: -1 }, field: 'sendTime' },
      ...badId('smsTemplateId'),
    ],
    validEdges: [
      { why: 'the shortest and longest E.164 numbers', patch: { phoneNumbers: ['+12', '+123456789012345'] } },
      {
        why: '100 numbers, params an empty list, FAILED',
        patch: {
          phoneNumbers: Array.from({ length: 100 }, (_, i) => `+1555${String(i).padStart(7, '0')}`),
          params: '[]',
          status: 'FAILED',
        },
      },
    ],
  },
  {
    ...common('sms-config'),
    sample: (s) => ({
      name: `SMS ${s}`,
      provider: 'aliyun',
      endpoint: `https://sms-${s}.example.com/api`,
      region: 'cn-hangzhou',
      accessKeyId: `AK-${s}`,
      accessKeySecret: `sk-${s}-Zq9secret`,
      signName: `Sign ${s}`,
      enabled: true,
      remark: `remark ${s}`,
    }),
    requiredFields: ['name', 'provider', 'accessKeyId', 'accessKeySecret', 'enabled'],
    sortField: 'name',
    defaultSort: createdNewest,
    updateField: 'remark',
    typedField: 'enabled',
    maxLength: { field: 'name', max: 255 },
    invalid: [
      { why: 'endpoint not a URL', patch: { endpoint: 'not a url' }, field: 'endpoint' },
      { why: 'endpoint without a scheme', patch: { endpoint: 'sms.example.com/api' }, field: 'endpoint' },
      { why: 'endpoint with an ftp scheme', patch: { endpoint: 'ftp://sms.example.com' }, field: 'endpoint' },
      { why: 'provider with a space', patch: { provider: 'ali yun' }, field: 'provider' },
      { why: 'endpoint on a link-local address', patch: { endpoint: 'http://169.254.169.254/latest' }, field: 'endpoint' },
      { why: 'endpoint on a unique-local address', patch: { endpoint: 'https://[fd00::1]/sms' }, field: 'endpoint' },
      tooLong('accessKeySecret', 255),
      tooLong('endpoint', 500),
      ...enabledCases,
    ],
    validEdges: [
      { why: 'an http endpoint with a (public) IP and port; no region', patch: { endpoint: 'http://1.2.3.4:8080/sms', region: null } },
    ],
  },
  {
    ...common('sms-package'),
    sample: (s) => ({
      name: `Pack ${s}`,
      totalCount: 10000,
      usedCount: 1250,
      expireTime: T0 + 365 * 24 * HOUR,
      status: 'ACTIVE',
      remark: `remark ${s}`,
    }),
    requiredFields: ['name', 'totalCount'], // status ACTIVE by default
    filterAlternatives: { status: 'EXPIRED' },
    sortField: 'name',
    defaultSort: createdNewest,
    updateField: 'remark',
    typedField: 'totalCount',
    maxLength: { field: 'name', max: 255 },
    invalid: [
      { why: 'totalCount negative', patch: { totalCount: -1 }, field: 'totalCount' },
      { why: 'usedCount negative', patch: { usedCount: -1 }, field: 'usedCount' },
      { why: 'totalCount above the int column', patch: { totalCount: 2147483648 }, field: 'totalCount' },
      wrongType('totalCount', '10000', 'as a string'),
      notOneOf('status', 'USED_UP'),
      { why: 'expireTime negative', patch: { expireTime: -1 }, field: 'expireTime' },
    ],
    validEdges: [
      { why: 'an empty package that never expires', patch: { totalCount: 0, usedCount: 0, expireTime: null, status: 'EXHAUSTED' } },
    ],
  },
  template(
    'sms-template',
    (s) => ({
      code: `otp-${s}`,
      name: `OTP ${s}`,
      content: `Your code is \${code} (${s})`,
      providerTemplateCode: `SMS_${s}`,
      enabled: true,
      remark: `remark ${s}`,
    }),
    {
      requiredFields: ['code', 'name', 'content', 'enabled'],
      invalid: [tooLong('content', 1000), { why: 'code with a slash', patch: { code: 'otp/1' }, field: 'code' }, ...enabledCases],
    },
  ),
  link('sms-template-sms-config', 'smsTemplateId', 'smsConfigId'),
];

export const MESSAGE_GROUP: ResourceGroup = { name: 'message', resources: MESSAGE_RESOURCES };

/** Lengths and patterns the groups of main-service share. */

/** Business codes (template, provider and business-type codes, regions): letters and digits, then also `.`, `_`, `:` or `-`. */
export const CODE_PATTERN = /^[0-9A-Za-z][0-9A-Za-z._:-]*$/;
export const CODE_PATTERN_MESSAGE = '$property must be letters and digits, then also . _ : or -';
/** As long as createdUsername (BaseRecord). */
export const USERNAME_MAX = 128;
export const NAME_MAX = 255;
export const REMARK_MAX = 500;
export const MESSAGE_MAX = 2000;

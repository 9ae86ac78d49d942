import type { ShippedTexts } from '@app/common';
import { de } from './de';
import { zhCN } from './zh-CN';

/** The service's own texts in the shipped languages (its manifest's `texts`). */
export const TEXTS: ShippedTexts = { de, 'zh-CN': zhCN };

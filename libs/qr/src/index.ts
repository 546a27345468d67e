export * from './content';
export * from './readability';
export * from './render/color';
export * from './render/options';
export * from './render/render';
export * from './render/contrast';
export { DataTooLongError, LogoTooLargeError, VersionTooLargeError } from './render/matrix';
export { UnsupportedCharactersError, unsupportedCharacters } from './render/fonts';
export { textOnBackground } from './render/frames';

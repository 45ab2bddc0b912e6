export const PLATFORM_LOGGER = Symbol('PLATFORM_LOGGER');
export const SERVICE_NAME = Symbol('SERVICE_NAME');

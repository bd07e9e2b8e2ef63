/** What webhook endpoints and their deliveries refuse, by code (`not_found`, `endpoint_disabled`…); the developer space and the admin CLI answer with it. */
export class WebhookEndpointError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

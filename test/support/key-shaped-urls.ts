/** Every place in a URL a client may put an API key: none of them may reach a log line or a span. */
export function keyShapedUrls(key: string): string[] {
  return [
    `/v1/pets?${key}`,
    `/v1/pets?access_token%3D${key}`,
    `/v1/pets?cursor=${key}`,
    `/v1/pets?limit=1;access_token=${key}`,
    `/v1/pets/${key}`,
    `/${key}`,
  ];
}

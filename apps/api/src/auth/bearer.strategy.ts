import { Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import { Strategy } from 'passport-http-bearer';
import { ApiKeyPrincipal } from './api-key';
import { ApiKeysService } from './api-keys.service';

@Injectable()
export class BearerStrategy extends PassportStrategy(Strategy, 'bearer') {
  constructor(private readonly apiKeys: ApiKeysService) {
    super();
  }

  async validate(token: string): Promise<ApiKeyPrincipal | false> {
    return (await this.apiKeys.authenticate(token)) ?? false;
  }
}

import { ProjectEntity } from './projects/project.entity';
import { QrCodeEntity } from './qr-codes/qr-code.entity';
import { ApiKeyEntity } from './users/api-key.entity';
import { UserEntity } from './users/user.entity';

/** Every entity, registered once for both dialects. */
export const ENTITIES = [UserEntity, ApiKeyEntity, ProjectEntity, QrCodeEntity];

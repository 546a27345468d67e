import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsIn, IsOptional, ValidateIf } from 'class-validator';
import { IntRange, IsFormBoolean, IsHexColor, OptionalText } from '@app/common';
import {
  ECC_LEVELS,
  FOREGROUND_TYPES,
  FRAME_FONTS,
  FRAMES,
  GRADIENT_STYLES,
  INNER_EYE_STYLES,
  MODULE_STYLES,
  OUTER_EYE_STYLES,
} from '@app/qr';
import { oneOf } from './one-of';

/** The shape of the modules and eyes, the error correction, the size and the margin. */
export class QrStyleFields {
  @ApiPropertyOptional({ enum: MODULE_STYLES })
  @IsOptional()
  @IsIn(MODULE_STYLES, oneOf(MODULE_STYLES))
  style?: (typeof MODULE_STYLES)[number];

  @ApiPropertyOptional({ enum: INNER_EYE_STYLES })
  @IsOptional()
  @IsIn(INNER_EYE_STYLES, oneOf(INNER_EYE_STYLES))
  inner_eye_style?: (typeof INNER_EYE_STYLES)[number];

  @ApiPropertyOptional({ enum: OUTER_EYE_STYLES })
  @IsOptional()
  @IsIn(OUTER_EYE_STYLES, oneOf(OUTER_EYE_STYLES))
  outer_eye_style?: (typeof OUTER_EYE_STYLES)[number];

  @ApiPropertyOptional({ enum: FOREGROUND_TYPES })
  @IsOptional()
  @IsIn(FOREGROUND_TYPES, oneOf(FOREGROUND_TYPES))
  foreground_type?: (typeof FOREGROUND_TYPES)[number];

  @ApiPropertyOptional({ enum: GRADIENT_STYLES })
  @IsOptional()
  @IsIn(GRADIENT_STYLES, oneOf(GRADIENT_STYLES))
  foreground_gradient_style?: (typeof GRADIENT_STYLES)[number];

  @ApiPropertyOptional({
    enum: ECC_LEVELS,
    description:
      'Error correction. An epc code is always M (EPC069-12): another level is refused, and so is a logo that M cannot spare. Under a logo other codes are encoded at least at Q, and at H when H fits in the same version or when the codewords the logo covers would take more than three quarters of what a block of Q corrects; settings keep the level asked for.',
  })
  @IsOptional()
  @IsIn(ECC_LEVELS, oneOf(ECC_LEVELS))
  ecc?: (typeof ECC_LEVELS)[number];

  @ApiPropertyOptional({
    type: 'integer',
    minimum: 50,
    maximum: 2000,
    description:
      'Height of the image in pixels, frame included; without a frame the image is size × size, with one as wide as the frame needs (never wider).',
  })
  @IsOptional()
  @IntRange(50, 2000)
  size?: number;

  @ApiPropertyOptional({ type: 'integer', minimum: 0, maximum: 25 })
  @IsOptional()
  @IntRange(0, 25)
  margin?: number;
}

/** Colours of the foreground (plain or gradient), the background and the eyes. */
export class QrColourFields {
  @ApiPropertyOptional({ example: '#000000', pattern: '^#[0-9a-fA-F]{6}$' })
  @IsOptional()
  @IsHexColor()
  foreground_color?: string;

  @ApiPropertyOptional({ example: '#000000', pattern: '^#[0-9a-fA-F]{6}$' })
  @IsOptional()
  @IsHexColor()
  foreground_gradient_one?: string;

  @ApiPropertyOptional({ example: '#000000', pattern: '^#[0-9a-fA-F]{6}$' })
  @IsOptional()
  @IsHexColor()
  foreground_gradient_two?: string;

  @ApiPropertyOptional({ example: '#000000', pattern: '^#[0-9a-fA-F]{6}$' })
  @IsOptional()
  @IsHexColor()
  background_color?: string;

  @ApiPropertyOptional({ example: '#000000', pattern: '^#[0-9a-fA-F]{6}$' })
  @IsOptional()
  @IsHexColor()
  eyes_inner_color?: string;

  @ApiPropertyOptional({ example: '#000000', pattern: '^#[0-9a-fA-F]{6}$' })
  @IsOptional()
  @IsHexColor()
  eyes_outer_color?: string;

  @ApiPropertyOptional({ type: 'integer', minimum: 0, maximum: 100 })
  @IsOptional()
  @IntRange(0, 100)
  background_color_transparency?: number;

  @ApiPropertyOptional({ type: 'boolean', description: '0 or 1' })
  @IsOptional()
  @IsFormBoolean()
  custom_eyes_color?: boolean;
}

/** The frame around the code and its text. */
export class QrFrameFields {
  @ApiPropertyOptional({ enum: FRAMES, nullable: true, description: 'Empty for no frame' })
  @IsOptional()
  @Transform(({ value }: { value: unknown }) => (value === '' ? null : value))
  @ValidateIf((_o, v) => v !== null)
  @IsIn(FRAMES, oneOf(FRAMES))
  frame?: (typeof FRAMES)[number] | null;

  @ApiPropertyOptional({ enum: FRAME_FONTS })
  @IsOptional()
  @IsIn(FRAME_FONTS, oneOf(FRAME_FONTS))
  frame_text_font?: (typeof FRAME_FONTS)[number];

  @ApiPropertyOptional({ example: '#000000', pattern: '^#[0-9a-fA-F]{6}$' })
  @IsOptional()
  @IsHexColor()
  frame_color?: string;

  @ApiPropertyOptional({ example: '#000000', pattern: '^#[0-9a-fA-F]{6}$' })
  @IsOptional()
  @IsHexColor()
  frame_text_color?: string;

  @ApiPropertyOptional({ type: 'integer', minimum: -5, maximum: 5 })
  @IsOptional()
  @IntRange(-5, 5)
  frame_text_size?: number;

  @ApiPropertyOptional({ type: 'boolean', description: '0 or 1' })
  @IsOptional()
  @IsFormBoolean()
  frame_custom_colors?: boolean;

  @OptionalText(64)
  frame_text?: string;
}

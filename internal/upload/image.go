package upload

import (
	"bytes"
	"encoding/binary"
	"image"
	"image/draw"
	"image/jpeg"
	"image/png"

	"tenger/internal/apperr"
)

// JPEGQuality is the quality re-encoded JPEGs are written with: high
// enough that a document's small print stays legible to a reviewer.
const JPEGQuality = 90

// checkImage decodes a JPEG or PNG and encodes it again. Only the pixels
// survive: EXIF (GPS position, camera serial), XMP, ICC profiles,
// comments, text chunks and anything after the image's end (a zip or HTML
// appended to make a polyglot) are dropped, and so is any structure a
// crafted file could use against a decoder further on (a reviewer's
// viewer, a KYC provider's). The header's dimensions are checked against
// lim before anything is decoded, so a small file that claims a huge
// image (a decompression bomb) costs nothing.
//
// A JPEG's EXIF orientation is applied to the pixels before the EXIF goes,
// so a phone photo of a document still shows upright.
func checkImage(kind Kind, data []byte, lim Limits) (Checked, error) {
	var (
		cfg image.Config
		err error
	)
	if kind == KindJPEG {
		cfg, err = jpeg.DecodeConfig(bytes.NewReader(data))
	} else {
		cfg, err = png.DecodeConfig(bytes.NewReader(data))
	}
	if err != nil {
		return Checked{}, apperr.New(apperr.CodeUploadCorrupt).WithCause(err)
	}
	if cfg.Width <= 0 || cfg.Height <= 0 {
		return Checked{}, apperr.New(apperr.CodeUploadCorrupt)
	}
	if cfg.Width > lim.MaxSide || cfg.Height > lim.MaxSide || int64(cfg.Width)*int64(cfg.Height) > lim.MaxPixels {
		return Checked{}, apperr.New(apperr.CodeUploadPixels, lim.MaxPixels/1_000_000, lim.MaxSide)
	}
	var img image.Image
	if kind == KindJPEG {
		img, err = jpeg.Decode(bytes.NewReader(data))
	} else {
		img, err = png.Decode(bytes.NewReader(data))
	}
	if err != nil {
		return Checked{}, apperr.New(apperr.CodeUploadCorrupt).WithCause(err)
	}
	var out bytes.Buffer
	if kind == KindJPEG {
		img = orient(img, jpegOrientation(data))
		err = jpeg.Encode(&out, img, &jpeg.Options{Quality: JPEGQuality})
	} else {
		err = (&png.Encoder{CompressionLevel: png.DefaultCompression}).Encode(&out, img)
	}
	if err != nil {
		// Encoding a decoded image fails only on a writer error, and a
		// bytes.Buffer has none: this is a bug, not the user's file.
		return Checked{}, err
	}
	b := img.Bounds()
	return Checked{Kind: kind, Data: out.Bytes(), Width: b.Dx(), Height: b.Dy()}, nil
}

// jpegOrientation reads the EXIF orientation (TIFF tag 0x0112) of a JPEG:
// 1 (as stored) to 8, or 1 when the file has none or it cannot be read.
// It walks the segments before the first scan only, with every length and
// offset checked against the data, so a crafted file can make it return 1
// but never read out of bounds.
func jpegOrientation(data []byte) int {
	i := 2 // after SOI
	for i+4 <= len(data) {
		if data[i] != 0xFF {
			return 1
		}
		marker := data[i+1]
		if marker == 0xFF { // fill byte
			i++
			continue
		}
		if marker == 0xDA || marker == 0xD9 { // start of scan, end of image
			return 1
		}
		n := int(binary.BigEndian.Uint16(data[i+2 : i+4]))
		if n < 2 || i+2+n > len(data) {
			return 1
		}
		seg := data[i+4 : i+2+n]
		if marker == 0xE1 && bytes.HasPrefix(seg, []byte("Exif\x00\x00")) {
			return exifOrientation(seg[6:])
		}
		i += 2 + n
	}
	return 1
}

// exifOrientation reads tag 0x0112 from the first IFD of a TIFF structure.
func exifOrientation(tiff []byte) int {
	if len(tiff) < 8 {
		return 1
	}
	var bo binary.ByteOrder
	switch string(tiff[:4]) {
	case "II*\x00":
		bo = binary.LittleEndian
	case "MM\x00*":
		bo = binary.BigEndian
	default:
		return 1
	}
	off := int64(bo.Uint32(tiff[4:8]))
	if off < 8 || off+2 > int64(len(tiff)) {
		return 1
	}
	count := int64(bo.Uint16(tiff[off : off+2]))
	for e := int64(0); e < count; e++ {
		p := off + 2 + e*12
		if p+12 > int64(len(tiff)) {
			return 1
		}
		ent := tiff[p : p+12]
		// Orientation is one SHORT (type 3), kept in the entry itself.
		if bo.Uint16(ent[0:2]) == 0x0112 && bo.Uint16(ent[2:4]) == 3 && bo.Uint32(ent[4:8]) == 1 {
			if o := int(bo.Uint16(ent[8:10])); o >= 1 && o <= 8 {
				return o
			}
			return 1
		}
	}
	return 1
}

// orient turns img as EXIF orientation o says it must be shown: 2 mirror,
// 3 rotate 180°, 4 flip, 5 transpose, 6 rotate 90° clockwise, 7
// transverse, 8 rotate 90° anticlockwise. The JPEG decoder's images are
// turned plane by plane in their own form (YCbCr, grey, CMYK), so a large
// photo is not first widened to RGBA; anything else is drawn into RGBA.
func orient(img image.Image, o int) image.Image {
	if o < 2 || o > 8 {
		return img
	}
	swap := o >= 5
	b := img.Bounds()
	w, h := b.Dx(), b.Dy()
	dr := image.Rect(0, 0, w, h)
	if swap {
		dr = image.Rect(0, 0, h, w)
	}
	switch src := img.(type) {
	case *image.YCbCr:
		ratio, ok := turnedRatio(src.SubsampleRatio, swap)
		if !ok {
			break
		}
		dst := image.NewYCbCr(dr, ratio)
		turnPlane(dst.Y, dst.YStride, src.Y[src.YOffset(b.Min.X, b.Min.Y):], src.YStride, w, h, 1, o)
		cw, ch := chromaSize(src.SubsampleRatio, w, h)
		turnPlane(dst.Cb, dst.CStride, src.Cb[src.COffset(b.Min.X, b.Min.Y):], src.CStride, cw, ch, 1, o)
		turnPlane(dst.Cr, dst.CStride, src.Cr[src.COffset(b.Min.X, b.Min.Y):], src.CStride, cw, ch, 1, o)
		return dst
	case *image.Gray:
		dst := image.NewGray(dr)
		turnPlane(dst.Pix, dst.Stride, src.Pix[src.PixOffset(b.Min.X, b.Min.Y):], src.Stride, w, h, 1, o)
		return dst
	case *image.CMYK:
		dst := image.NewCMYK(dr)
		turnPlane(dst.Pix, dst.Stride, src.Pix[src.PixOffset(b.Min.X, b.Min.Y):], src.Stride, w, h, 4, o)
		return dst
	}
	rgba := image.NewRGBA(image.Rect(0, 0, w, h))
	draw.Draw(rgba, rgba.Bounds(), img, b.Min, draw.Src)
	dst := image.NewRGBA(dr)
	turnPlane(dst.Pix, dst.Stride, rgba.Pix, rgba.Stride, w, h, 4, o)
	return dst
}

// turnedRatio is the chroma subsampling of a YCbCr image once turned:
// unchanged unless its axes swap, when halving across becomes halving
// down (4:2:2 ↔ 4:4:0). The ratios with no swapped counterpart (4:1:1,
// 4:1:0) answer false and are turned through RGBA.
func turnedRatio(r image.YCbCrSubsampleRatio, swap bool) (image.YCbCrSubsampleRatio, bool) {
	switch r {
	case image.YCbCrSubsampleRatio444, image.YCbCrSubsampleRatio420:
		return r, true
	case image.YCbCrSubsampleRatio422:
		if swap {
			return image.YCbCrSubsampleRatio440, true
		}
		return r, true
	case image.YCbCrSubsampleRatio440:
		if swap {
			return image.YCbCrSubsampleRatio422, true
		}
		return r, true
	}
	return r, false
}

// chromaSize is the size of the chroma planes of a w×h YCbCr image whose
// bounds start at the origin (as the JPEG decoder's do).
func chromaSize(r image.YCbCrSubsampleRatio, w, h int) (int, int) {
	switch r {
	case image.YCbCrSubsampleRatio422:
		return (w + 1) / 2, h
	case image.YCbCrSubsampleRatio420:
		return (w + 1) / 2, (h + 1) / 2
	case image.YCbCrSubsampleRatio440:
		return w, (h + 1) / 2
	}
	return w, h
}

// turnPlane copies a w×h plane of bpp-byte pixels from src to dst turned
// by orientation o (dst is h×w when o swaps the axes). Each source pixel
// (x, y) lands where the orientation's definition puts the source's row 0
// and column 0: for 6, row 0 becomes the right-hand column and column 0
// the top row.
func turnPlane(dst []byte, dstStride int, src []byte, srcStride, w, h, bpp, o int) {
	for y := 0; y < h; y++ {
		row := src[y*srcStride : y*srcStride+w*bpp]
		for x := 0; x < w; x++ {
			var dx, dy int
			switch o {
			case 2:
				dx, dy = w-1-x, y
			case 3:
				dx, dy = w-1-x, h-1-y
			case 4:
				dx, dy = x, h-1-y
			case 5:
				dx, dy = y, x
			case 6:
				dx, dy = h-1-y, x
			case 7:
				dx, dy = h-1-y, w-1-x
			case 8:
				dx, dy = y, w-1-x
			}
			copy(dst[dy*dstStride+dx*bpp:dy*dstStride+dx*bpp+bpp], row[x*bpp:x*bpp+bpp])
		}
	}
}

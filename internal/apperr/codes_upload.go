package apperr

import "net/http"

// Uploads (internal/upload): the files users send for identity and
// corporate verification and other image fields (/common/upload_img,
// /common/upload_img_auth) and reading them back (/common/upload_file).
// Codes 16100–16199 belong to this area; too many uploads answer the
// platform's 10004.
var (
	// CodeUploadFileMissing: the request has no multipart "file" part, or
	// it is empty.
	CodeUploadFileMissing = register("16100", http.StatusOK,
		`Choose a file to upload (multipart form field "file")`,
		`Илгээх файлаа сонгоно уу ("file" талбар)`)
	// CodeUploadTooLarge: the file is larger than the upload limit. It is
	// answered with 413, as the platform's body limit (10007) is.
	CodeUploadTooLarge = register("16101", http.StatusRequestEntityTooLarge,
		"The file is too large (at most %d MB)",
		"Файлын хэмжээ хэт их байна (дээд тал нь %d МБ)")
	// CodeUploadType: the content is none of the types the upload takes
	// (the argument lists them: "JPEG, PNG" or "JPEG, PNG, PDF"). The type
	// is read from the bytes, never from the file name or Content-Type.
	CodeUploadType = register("16102", http.StatusOK,
		"This type of file is not accepted: upload %s",
		"Энэ төрлийн файлыг хүлээн авахгүй: %s файл илгээнэ үү")
	// CodeUploadPixels: the image's header claims more pixels than an
	// upload may have (refused before it is decoded).
	CodeUploadPixels = register("16103", http.StatusOK,
		"The image is too large: at most %d megapixels and %d pixels on a side",
		"Зургийн хэмжээ хэт их байна: дээд тал нь %d мегапиксел, нэг талдаа %d пиксел")
	// CodeUploadCorrupt: the image or PDF cannot be read (damaged,
	// truncated, or the upload was cut off).
	CodeUploadCorrupt = register("16104", http.StatusOK,
		"The file could not be read: it is damaged or incomplete",
		"Файлыг уншиж чадсангүй: гэмтсэн эсвэл дутуу байна")
	// CodeUploadPDFActive: the PDF carries scripts, actions, attached
	// files, or parts that cannot be checked (encryption, unknown
	// compression of its object streams).
	CodeUploadPDFActive = register("16105", http.StatusOK,
		"The PDF contains scripts, actions, attached files or parts that cannot be checked: save it again as a plain PDF",
		"PDF файлд скрипт, үйлдэл, хавсаргасан файл эсвэл шалгах боломжгүй хэсэг байна: энгийн PDF болгон дахин хадгална уу")
	// CodeUploadNotFound: no such upload of this user. Another user's
	// upload answers the same, so an id never reveals that it exists.
	CodeUploadNotFound = register("16106", http.StatusNotFound,
		"File not found",
		"Файл олдсонгүй")
)

package browser

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"testing"
)

// encryptedPDF is an empty PDF whose trailer names an encryption
// dictionary.
func encryptedPDF(encrypt string) []byte {
	var buf bytes.Buffer
	buf.WriteString("%PDF-1.7\n")
	offs := []int{buf.Len()}
	buf.WriteString("1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n")
	offs = append(offs, buf.Len())
	buf.WriteString("2 0 obj\n<< /Type /Pages /Kids [] /Count 0 >>\nendobj\n")
	xref := buf.Len()
	fmt.Fprintf(&buf, "xref\n0 3\n0000000000 65535 f \n%010d 00000 n \n%010d 00000 n \n", offs[0], offs[1])
	fmt.Fprintf(&buf, "trailer\n<< /Size 3 /Root 1 0 R /Encrypt %s /ID [<00112233445566778899aabbccddeeff> <00112233445566778899aabbccddeeff>] >>\nstartxref\n%d\n%%%%EOF\n", encrypt, xref)
	return buf.Bytes()
}

// An encrypted PDF says so, whether it needs a password or uses an
// encryption the parser does not know.
func TestReadPDFEncrypted(t *testing.T) {
	password := `<< /Filter /Standard /V 1 /R 2 /Length 40 /P -4 /O <` + strings.Repeat("00", 32) + `> /U <` + strings.Repeat("00", 32) + `> >>`
	if p := readPDF(context.Background(), encryptedPDF(password)).problem; p != "it is encrypted with a password" {
		t.Errorf("a PDF with a password: %q", p)
	}
	aes256 := `<< /Filter /Standard /V 5 /R 6 /Length 256 /P -4 >>`
	if p := readPDF(context.Background(), encryptedPDF(aes256)).problem; !strings.HasPrefix(p, "it is encrypted in a way webagent cannot read") {
		t.Errorf("a PDF with AES-256: %q", p)
	}
}

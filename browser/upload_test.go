package browser

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/webagent/webagent/contract"
	"github.com/webagent/webagent/testfixture/tier"
)

func TestUploadRejectsPathsOutsideTheFolder(t *testing.T) {
	tier.Slow(t)
	t.Parallel()
	shared := newTab(t)
	s := open(t, shared, servePage(t, `<title>Upload</title><label>File <input type=file id=f></label><p id=out></p>
<script>document.getElementById('f').addEventListener('change', (e) => document.getElementById('out').textContent = Array.from(e.target.files).map((f) => f.name).join(','));</script>`))
	file := ref(t, s, "button", "File")
	up := func(files ...string) (string, error) {
		out, err := shared.Do(tctx(t), contract.Action{Name: contract.ActUpload, Ref: file, Files: files})
		return out.Text, err
	}

	withUploadDir(t, shared, "")
	if _, err := up("a.txt"); !isActionError(err) || !strings.Contains(err.Error(), "no folder for uploads was configured") {
		t.Errorf("upload without a folder: %v", err)
	}

	dir := t.TempDir()
	outside := t.TempDir()
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.WriteFile(filepath.Join(dir, "a.txt"), []byte("a"), 0o644))
	must(os.MkdirAll(filepath.Join(dir, "sub"), 0o755))
	must(os.WriteFile(filepath.Join(dir, "sub", "b.txt"), []byte("b"), 0o644))
	must(os.WriteFile(filepath.Join(outside, "secret.txt"), []byte("secret"), 0o644))
	must(os.Symlink(filepath.Join(outside, "secret.txt"), filepath.Join(dir, "link.txt")))
	must(os.Symlink(outside, filepath.Join(dir, "linkdir")))
	must(os.Symlink("a.txt", filepath.Join(dir, "inside-link.txt")))
	withUploadDir(t, shared, dir)

	for _, c := range []struct {
		files []string
		want  string
	}{
		{[]string{filepath.Join(dir, "a.txt")}, "is an absolute path"},
		{[]string{"/etc/passwd"}, "is an absolute path"},
		{[]string{"../a.txt"}, `".." is not allowed`},
		{[]string{"sub/../../x"}, `".." is not allowed`},
		{[]string{`sub\..\..\x`}, `".." is not allowed`},
		{[]string{"link.txt"}, "leads outside the upload folder"},
		{[]string{"linkdir/secret.txt"}, "leads outside the upload folder"},
		{[]string{"missing.txt"}, `there is no file "missing.txt" in the upload folder; the upload folder holds "a.txt"`},
		{[]string{"sub"}, "is not a file"},
		{[]string{""}, "empty file name"},
		{nil, "needs the names of the files"},
		{[]string{"a.txt", "sub/b.txt"}, "takes one file only"},
	} {
		_, err := up(c.files...)
		if !isActionError(err) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("upload %q: %v, want an ActionError with %q", c.files, err, c.want)
		}
	}
	if got := evalPage[string](t, shared, "document.getElementById('out').textContent"); got != "" {
		t.Fatalf("a refused upload set files: %q", got)
	}
	out, err := up("sub/b.txt")
	if err != nil || !strings.Contains(out, `uploaded "sub/b.txt" into button "File"`) {
		t.Errorf("upload of a file in a subfolder: %q, %v", out, err)
	}
	if got := evalPage[string](t, shared, "document.getElementById('out').textContent"); got != "b.txt" {
		t.Errorf("files after the upload: %q", got)
	}
	if _, err := up("inside-link.txt"); err != nil {
		t.Errorf("a link inside the folder: %v", err)
	}
}

func TestUploadDirOption(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "doc.txt"), []byte("doc"), 0o644); err != nil {
		t.Fatal(err)
	}
	b := newTabWith(t, Options{UploadDir: dir})
	s := open(t, b, servePage(t, `<title>Upload</title><input type=file aria-label="Attachment">`))
	out := do(t, b, contract.Action{Name: contract.ActUpload, Ref: ref(t, s, "button", "Attachment"), Files: []string{"doc.txt"}})
	if !strings.HasPrefix(out, `uploaded "doc.txt"`) {
		t.Errorf("outcome = %q", out)
	}
	if _, err := b.Do(tctx(t), contract.Action{Name: contract.ActUpload, Ref: ref(t, s, "button", "Attachment"), Files: []string{"../doc.txt"}}); !isActionError(err) {
		t.Errorf("upload of ../doc.txt: %v", err)
	}
}

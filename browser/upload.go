package browser

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/dom"

	"github.com/webagent/webagent/contract"
)

// fileInputJS finds the file input an element stands for: itself, the
// control of a label, the one file input inside it, or the one file input
// of a nearby ancestor (a styled "Choose file" button next to a hidden
// input).
var fileInputJS = program("fileInput")

// fileInputStateJS reports a file input's disabled, multiple and accept.
var fileInputStateJS = program("fileInputState")

// doUpload puts a.Files, from the upload folder, into the file input of
// a.Ref's element (or the one its label or button stands for).
func (o *op) doUpload(a contract.Action) (string, error) {
	ref, files := a.Ref, a.Files
	b := o.b
	paths, err := b.uploadPaths(files)
	if err != nil {
		return "", err
	}
	el, err := o.resolve(ref)
	if err != nil {
		return "", err
	}
	fin, ok, err := o.childEl(el, fileInputJS)
	if err != nil {
		return "", err
	}
	if !ok {
		return "", contract.ActionErrorf("%s is not a file input, and no file input belongs to it; give the ref of the file input or of its label or button", el.desc)
	}
	var st struct {
		Disabled, Multiple bool
		Accept             string
	}
	if err := o.callEl(fin, fileInputStateJS, &st); err != nil {
		return "", err
	}
	switch {
	case st.Disabled:
		return "", contract.ActionErrorf("the file input of %s is disabled", el.desc)
	case len(paths) > 1 && !st.Multiple:
		return "", contract.ActionErrorf("%s takes one file only; upload one of them", el.desc)
	}
	s0 := b.nav.state()
	if _, err := cdp.Call(o.ctx, b.targetOf(fin.frame), dom.SetFileInputFiles, dom.SetFileInputFilesParams{Files: paths, ObjectID: fin.id}); err != nil {
		if isProtocolError(err) {
			return "", contract.ActionErrorf("could not put the files into %s: %v", el.desc, err)
		}
		return "", err
	}
	nav, err := o.afterInput(s0, inputGrace)
	if err != nil {
		return "", err
	}
	quoted := make([]string, len(files))
	for i, f := range files {
		quoted[i] = strconv.Quote(filepath.ToSlash(filepath.Clean(strings.TrimSpace(f))))
	}
	return fmt.Sprintf("uploaded %s into %s%s", strings.Join(quoted, ", "), el.desc, nav), nil
}

// uploadPaths resolves the file names the model gave inside the upload
// folder. Absolute paths, "..", names that lead outside the folder through
// a symbolic link, folders and missing files are refused.
func (b *Browser) uploadPaths(files []string) ([]string, error) {
	if b.opts.UploadDir == "" {
		return nil, contract.ActionErrorf("uploads are not allowed: no folder for uploads was configured (the user can allow one with --upload-dir)")
	}
	root, err := filepath.Abs(b.opts.UploadDir)
	if err == nil {
		root, err = filepath.EvalSymlinks(root)
	}
	if err != nil {
		return nil, contract.ActionErrorf("the upload folder cannot be used: %v", err)
	}
	var out []string
	for _, f := range files {
		name := strings.TrimSpace(f)
		switch {
		case name == "":
			return nil, contract.ActionErrorf("an empty file name was given; %s", b.uploadListing(root))
		case filepath.IsAbs(name) || strings.HasPrefix(name, "/") || strings.HasPrefix(name, `\`) || filepath.VolumeName(name) != "":
			return nil, contract.ActionErrorf("%q is an absolute path: give the file's name inside the upload folder; %s", f, b.uploadListing(root))
		}
		for _, part := range strings.FieldsFunc(name, func(r rune) bool { return r == '/' || r == '\\' }) {
			if part == ".." {
				return nil, contract.ActionErrorf("%q leads out of the upload folder: \"..\" is not allowed; %s", f, b.uploadListing(root))
			}
		}
		p := filepath.Join(root, filepath.FromSlash(name))
		real, err := filepath.EvalSymlinks(p)
		if errors.Is(err, fs.ErrNotExist) {
			return nil, contract.ActionErrorf("there is no file %q in the upload folder; %s", f, b.uploadListing(root))
		}
		if err != nil {
			return nil, contract.ActionErrorf("the file %q cannot be used: %v", f, err)
		}
		if rel, err := filepath.Rel(root, real); err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			return nil, contract.ActionErrorf("%q is a link that leads outside the upload folder, which is not allowed", f)
		}
		fi, err := os.Stat(real)
		if err != nil {
			return nil, contract.ActionErrorf("the file %q cannot be used: %v", f, err)
		}
		if !fi.Mode().IsRegular() {
			return nil, contract.ActionErrorf("%q is not a file (a folder?); give a file's name", f)
		}
		out = append(out, real)
	}
	return out, nil
}

// uploadListing names the files the upload folder offers.
func (b *Browser) uploadListing(root string) string {
	entries, err := os.ReadDir(root)
	if err != nil {
		return "the upload folder cannot be listed"
	}
	var names []string
	for _, e := range entries {
		if e.Type().IsRegular() {
			names = append(names, strconv.Quote(e.Name()))
		}
	}
	switch {
	case len(names) == 0:
		return "the upload folder holds no files"
	case len(names) > 30:
		return fmt.Sprintf("the upload folder holds %s and %d more", strings.Join(names[:30], ", "), len(names)-30)
	}
	return "the upload folder holds " + strings.Join(names, ", ")
}

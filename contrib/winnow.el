;;; winnow.el --- open winnow on the message at point  -*- lexical-binding: t -*-

;; In notmuch-emacs, M-x winnow-at-point opens winnow in a terminal
;; buffer on the message at point (notmuch-show, notmuch-tree) or the
;; thread at point (notmuch-search): the review itself, a patch's
;; reviews, a thread's.  Load it from your init file:
;;
;;   (load "/path/to/winnow/contrib/winnow.el")
;;   (with-eval-after-load 'notmuch
;;     (define-key notmuch-show-mode-map (kbd "C-c w") #'winnow-at-point)
;;     (define-key notmuch-search-mode-map (kbd "C-c w") #'winnow-at-point))
;;
;; The id is one argument of the program, run without a shell
;; (make-term), so nothing in a Message-ID is ever interpreted.

;;; Code:

(require 'term)

(defvar winnow-program "winnow"
  "The winnow program `winnow-at-point' runs.")

(declare-function notmuch-show-get-message-id "notmuch-show" (&optional bare))
(declare-function notmuch-tree-get-message-id "notmuch-tree" (&optional bare))
(declare-function notmuch-search-find-thread-id "notmuch" (&optional bare))

(defun winnow-argv (id)
  "The program and arguments that open winnow on ID (a message's or thread's id)."
  (list winnow-program (concat "id:" id)))

(defun winnow--id-at-point ()
  "The bare id of the message (or search result's thread) at point, or nil."
  (cond ((derived-mode-p 'notmuch-show-mode) (notmuch-show-get-message-id t))
        ((derived-mode-p 'notmuch-tree-mode) (notmuch-tree-get-message-id t))
        ((derived-mode-p 'notmuch-search-mode) (notmuch-search-find-thread-id t))))

;;;###autoload
(defun winnow-at-point ()
  "Open winnow in a terminal buffer on the message or thread at point."
  (interactive)
  (let ((id (winnow--id-at-point)))
    (unless (and id (not (equal id "")))
      (user-error "No message or thread at point"))
    (let* ((argv (winnow-argv id))
           (buf (apply #'make-term "winnow" (car argv) nil (cdr argv))))
      (with-current-buffer buf
        (term-mode)
        (term-char-mode))
      (pop-to-buffer buf))))

(provide 'winnow)
;;; winnow.el ends here

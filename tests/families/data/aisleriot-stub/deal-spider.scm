;; Print the deals of Aisleriot's Spider with its deck option: guile -s deal-spider.scm four|two|one SEED...
;; (environment as for deal.scm; not named spider.scm, which spiderette.go loads from the load path).
(load "deal-common.scm")
(define option (cadr (command-line)))
(define seeds (map string->number (cddr (command-line))))
(load-game "spider.go")
(define m (current-module))
(module-set! m 'suits-one (string=? option "one"))
(module-set! m 'suits-two (string=? option "two"))
(module-set! m 'suits-four (string=? option "four"))
(print-deals (string-append "spider-" option) seeds)

;; Print the deals of an Aisleriot game for seeds: guile -s deal.scm GAME SEED...
;; with GUILE_LOAD_PATH=<this directory> (for the stand-in (aisleriot interface)),
;; GUILE_LOAD_COMPILED_PATH and AISLERIOT_GO the package's guile/3.0/ directory (with a final /).
(use-modules (aisleriot interface) (ice-9 format))
(define game (cadr (command-line)))
(define seeds (map string->number (cddr (command-line))))
(define ranks "A23456789TJQK")
(define suits "cdhs")
(define (card->string c)
  (format #f "~a~a~a" (if (caddr c) "" "*") (string-ref ranks (- (car c) 1)) (string-ref suits (cadr c))))
(define new-game #f)
(define user (resolve-module '(guile-user)))
(load-compiled (string-append (or (getenv "AISLERIOT_GO") "/usr/lib/x86_64-linux-gnu/aisleriot/guile/3.0/") game ".go"))
(for-each
 (lambda (seed)
   (seed-rand! seed)
   ((module-ref (current-module) 'new-game))
   (format #t "# game=~a deal=~a~%" game seed)
   (let loop ((i 0))
     (when (< i slot-count)
       (format #t "~a:~{~a~^ ~}~%" i (map card->string (cadr (get-slot i))))
       (loop (+ i 1)))))
 seeds)
